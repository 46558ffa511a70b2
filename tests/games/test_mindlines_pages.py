"""Mind the Lines' own pages: how to play, the teacher guide and the one-screen rules (rendered from their
templates; what they quote holds in the engine and the catalog), and "play with your own words", which
tells a teacher whether a word list is long enough for each group size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from games import shipped
from games.definitions import definition
from games.definitions.mindlines.pages import coverage
from games.engine.mindlines import MindTheLines, rules
from questions import services as question_services

pytestmark = pytest.mark.django_db

PAGES = {
    "how_to_play": "/games/mindlines/how-to-play/",
    "guide": "/games/mindlines/guide/",
    "rules": "/games/mindlines/rules/",
}
LISTS = "/games/mindlines/lists/"
WEEK_12 = [
    "apple",
    "bridge",
    "candle",
    "desert",
    "engine",
    "feather",
    "garden",
    "helmet",
    "island",
    "jacket",
    "kettle",
    "ladder",
    "mirror",
    "needle",
    "orange",
    "pillow",
    "rabbit",
    "saddle",
    "tunnel",
    "window",
]


def render(name: str) -> str:
    request = RequestFactory().get(PAGES[name])
    request.user, request.student = AnonymousUser(), None
    return render_to_string(f"games/mindlines/{name}.html", request=request)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def screen_source() -> str:
    """The game screen's scripts, as the pages load them."""
    static = Path(__file__).resolve().parents[2] / "static"
    return "".join((static / script).read_text("utf-8") for script in definition("mindlines").screen_scripts)


@pytest.mark.parametrize("name", PAGES)
def test_each_page_extends_the_site_and_loads_the_game_styles(name):
    html = render(name)
    assert "<main" in html and 'class="ml-doc' in html
    assert "/static/css/games/mindlines.css" in html
    assert html.count("<h1") == 1


def test_how_to_play_tells_the_whole_round_in_a_students_words():
    text = text_of(render("how_to_play"))
    for words in (
        "only the dotted lines",
        "No letters and no numbers!",
        "two sides",
        "2 or 3 players",
        "decoys",
        "You can't exclude your own concept",
        "Every concept left that nobody drew is one error point",
        "clockwise",
        "at most as many error points as players",
        "the game is lost straight away",
    ):
        assert words in text, words


def test_how_to_play_documents_every_key_the_board_answers_to():
    text = text_of(render("how_to_play"))
    source = screen_source()
    for key in ("Home", "PgUp", "End", "PgDn", "Space", "Enter", "Esc", "Ctrl", "U", "P", "X"):
        assert key in text, key
    for key in ("Home", "PageUp", "End", "PageDown", "Escape", '"u"', '"p"', '"x"'):
        assert key in source, key


def test_the_example_board_is_drawn_on_its_own_dotted_lines():
    """The house in the pages' picture uses only the example side's dotted lines (as the game enforces)."""
    html = render_to_string("games/mindlines/_example_board.html", {"label": "x", "drawn": True})
    lines = re.search(r'class="ml-lines" d="([^"]+)"', html).group(1)
    ink = re.search(r'class="ml-stroke" d="([^"]+)"', html).group(1)

    def unit_segments(path: str) -> set[tuple]:
        segments, point = set(), None
        for command, x, y in re.findall(r"([ML])\s*(-?\d+)\s+(-?\d+)", path):
            nxt = (int(x), int(y))
            if command == "L":
                steps = max(abs(nxt[0] - point[0]), abs(nxt[1] - point[1]))
                dx, dy = (nxt[0] - point[0]) // steps, (nxt[1] - point[1]) // steps
                for i in range(steps):
                    a = (point[0] + i * dx, point[1] + i * dy)
                    b = (a[0] + dx, a[1] + dy)
                    segments.add(tuple(sorted((a, b))))
            point = nxt
        return segments

    assert unit_segments(ink) <= unit_segments(lines)


def test_the_guide_quotes_the_settings_and_the_group_sizes_the_catalog_has():
    text = text_of(render("guide"))
    spec = definition("mindlines").spec
    draw = spec.settings["draw_seconds"]
    assert f"{draw.default} by default ({draw.minimum} to {draw.maximum})" in text
    assert str(spec.settings["difficulty"].label) in text and str(draw.label) in text
    language = spec.settings["language"]
    assert str(language.label) in text
    assert all(str(name) in text for _key, name in language.choices)
    assert f"groups of {spec.table_min} to {spec.table_max}" in text
    assert "15 to 25 minutes" in text and "Hide drawing" in text


def test_the_one_screen_rules_name_the_goal_and_the_early_loss():
    text = text_of(render("rules"))
    assert "after 4 rounds, at most as many error points as players" in text
    assert "More error points than players at any reveal." in text
    assert MindTheLines.default_config["draw_seconds"] == 120 and "2 minutes" in text


# --------------------------------------------------------------------------------------------------
# Play with your own words
# --------------------------------------------------------------------------------------------------


def test_coverage_follows_the_engines_count_of_concepts_needed():
    assert [row["status"] for row in coverage(32)] == [
        "full",
        "repeats",
        "full",
        "repeats",
        "repeats",
        "repeats",
        "repeats",
    ]
    assert [row["game"] for row in coverage(0)] == [rules.concepts_needed(n) for n in range(2, 9)]
    assert [row["status"] for row in coverage(7)] == ["short"] * 7
    assert coverage(64)[-1]["status"] == "full" and coverage(63)[-1]["status"] == "repeats"


def test_a_visitor_must_sign_in_to_see_word_lists(client):
    response = client.get(LISTS)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_teacher_sees_their_schools_lists_with_what_they_cover_and_not_another_schools(
    client_of, ms_rivera, mr_moss, mr_okafor, riverside, hillside
):
    week = question_services.word_list_create(school=riverside, author=mr_moss, name="Week 12")
    question_services.word_list_add_words(
        word_list=week, by=mr_moss, texts=WEEK_12, difficulty="easy", theme="week"
    )
    question_services.word_list_add_words(
        word_list=week, by=mr_moss, texts=["volcano", "harbour"], difficulty="hard"
    )
    other = question_services.word_list_create(school=hillside, author=mr_okafor, name="Hillside secrets")

    response = client_of(ms_rivera).get(LISTS)
    assert response.status_code == 200
    text = text_of(response.content.decode())
    assert "Week 12" in text and "22 words (20 easy, 2 hard)" in text and "week (20)" in text
    assert other.name not in text
    week_row = response.context["lists"][0]
    assert [row["status"] for row in week_row["coverage"]] == ["repeats"] * 7  # 22: one round for 8 needs 16
    # the shipped decks, counted from the files the game plays
    decks = {deck["difficulty"]: deck for deck in response.context["decks"]}
    assert decks["easy"]["count"] == len(shipped.mindlines_concepts("easy")) >= 150
    assert decks["hard"]["count"] == len(shipped.mindlines_concepts("hard")) >= 150
    assert all(row["status"] == "full" for row in decks["easy"]["coverage"])


def test_a_school_without_lists_is_told_how_to_write_one(client_of, ms_rivera):
    text = text_of(client_of(ms_rivera).get(LISTS).content.decode())
    assert "Your school has no word lists yet." in text


def test_the_shipped_themes_are_named_in_the_pages_language_and_a_lists_own_as_written(
    client_of, ms_rivera, mr_moss, riverside
):
    from games.definitions.mindlines.pages import THEME_NAMES

    decks = [shipped.mindlines_concepts(difficulty) for difficulty in shipped.MINDLINES_DIFFICULTIES]
    assert {concept["theme"] for deck in decks for concept in deck} == set(THEME_NAMES)
    script = screen_source()
    assert all(f'{theme}: pgettext("Mind the Lines theme", "{theme}")' in script for theme in THEME_NAMES)
    week = question_services.word_list_create(school=riverside, author=mr_moss, name="Week 12")
    add = question_services.word_list_add_words
    add(word_list=week, by=mr_moss, texts=WEEK_12, difficulty="easy", theme="semana 12")
    add(word_list=week, by=mr_moss, texts=["volcano"], difficulty="easy", theme="animals")
    client = client_of(ms_rivera)
    with translation.override("en"):  # (the Spanish page's language stays with the page)
        text = text_of(client.get(LISTS, headers={"accept-language": "es"}).content.decode())
    assert "animales (" in text and "clima (" in text and "semana 12 (20)" in text
    assert "animals (" not in text and "weather (" not in text
    assert "· animales" in text  # the list's word with a shipped theme
