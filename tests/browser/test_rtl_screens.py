"""Game screens on an Arabic or Spanish page: Line-it's lines keep left to right and its decimal faces
take the page's decimal separator; Word Up's English stays marked English, left to right."""

from __future__ import annotations

import json
import re

import pytest

from games.engine.lineit import LineIt
from tests.browser.harness import open_device
from tests.browser.test_wordup_screen import Bench, fresh_state, onto

pytestmark = [pytest.mark.browser]
GAME = LineIt()
SEATS = [{"id": "a", "name": "Aisha K."}, {"id": "b", "name": "Ben O."}]


def _decimal_market_state():
    """A level-4 game (decimals from -25 to 25) whose market shows a decimal face."""
    for seed in range(200):
        state = GAME.setup({**GAME.default_config, "players": SEATS, "level": 4}, f"decimals-{seed}")
        view = GAME.view(state, {"role": "player", "player": "a"})
        faces = [card["face"] for card in view["market"] if "." in str(card.get("face", ""))]
        if faces:
            return view, faces
    raise AssertionError("no level-4 market with a decimal face in 200 seeds")


def _draw(page, view, lang, direction):
    page.evaluate(
        "([lang, dir]) => { document.documentElement.lang = lang; document.documentElement.dir = dir; }",
        [lang, direction],
    )
    page.evaluate(
        "t => window.draw(t)", {"table": 7, "number": 1, "seq": 1, "status": "playing", "view": view}
    )


def test_line_it_decimal_faces_take_the_pages_separator(new_page):
    view, faces = _decimal_market_state()
    view = json.loads(json.dumps(view))
    page = open_device(new_page, "lineit", "player", "a", width=1366, height=650)
    _draw(page, view, "es", "ltr")
    shown = page.locator("#root").inner_text()
    for face in faces:
        assert face.replace(".", ",").replace("-", "\u2212") in shown
    _draw(page, view, "en", "ltr")
    assert faces[0].replace("-", "\u2212") in page.locator("#root").inner_text()
    assert page.evaluate("window.errors") == []


def test_line_it_lines_read_left_to_right_on_an_arabic_page(new_page):
    state = GAME.setup({**GAME.default_config, "players": SEATS, "level": 3}, "rtl-line")
    state["lines"]["a"]["cards"], state["deck"] = state["deck"][:3], state["deck"][3:]  # a line to look at
    view = json.loads(json.dumps(GAME.view(state, {"role": "player", "player": "a"})))
    page = open_device(new_page, "lineit", "player", "a", width=1366, height=650)
    _draw(page, view, "ar", "rtl")
    line = page.locator(".lineit-cards--line")
    assert line.get_attribute("dir") == "ltr"
    lefts = line.evaluate("(ol) => [...ol.children].map((card) => card.getBoundingClientRect().left)")
    assert len(lefts) == 3 and lefts == sorted(lefts)  # the first card of the line is the leftmost
    market = page.locator(".lineit-cards--market")
    assert market.evaluate("(ul) => getComputedStyle(ul).direction") == "rtl"  # the rest mirrors


def test_word_up_keeps_its_english_marked_english_on_an_arabic_page(new_page):
    bench = Bench(onto(fresh_state(), "question", "missing_word"))
    first = bench.state["turn"]
    device = bench.add(new_page(1366, 650), {"role": "player", "player": first})
    page = device.page
    page.evaluate("() => { document.documentElement.lang = 'ar'; document.documentElement.dir = 'rtl'; }")
    bench.draw(device)
    page.get_by_role("button", name=re.compile("Roll the dice")).wait_for()
    page.keyboard.press("r")
    bench.pump(device)
    box = page.get_by_label("Your answer")
    box.wait_for()
    assert [box.get_attribute("lang"), box.get_attribute("dir")] == ["en", "ltr"]
    prompt = page.locator(".wu-question .wu-prompt").first
    assert [prompt.get_attribute("lang"), prompt.get_attribute("dir")] == ["en", "ltr"]
    assert page.evaluate("getComputedStyle(document.querySelector('.wu-question')).direction") == "rtl"
    assert device.errors() == []


def _to_arabic(page):
    page.evaluate("() => { document.documentElement.lang = 'ar'; document.documentElement.dir = 'rtl'; }")


def test_line_up_shows_its_cards_in_one_order_on_the_projector_and_the_devices_and_its_arrows_mirror(
    new_page,
):
    from tests.browser.test_lineup_screen import Bench, h

    bench = Bench(new_page, h.fresh(blue=9, yellow=2))
    pages = {"ava": bench.device("ava", "player", "ava"), "projector": bench.device("projector", "projector")}
    for name, page in pages.items():
        _to_arabic(page)
        bench.draw(name)
        cards = page.locator(".lu-cardlist").first
        assert cards.get_attribute("dir") == "ltr", name
        order = cards.evaluate(
            """(ol) => [...ol.children]
              .map((li) => [li.getBoundingClientRect().top, li.getBoundingClientRect().left,
                            li.querySelector('.lu-card-n').textContent])
              .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((row) => row[2])"""
        )
        assert order == sorted(order), (name, order)  # A first, at the left, as the rack reads
    arrow = pages["projector"].locator(".lu-arrow").first
    assert arrow.evaluate("(el) => getComputedStyle(el).transform") == "matrix(-1, 0, 0, 1, 0, 0)"
    assert bench.pages["ava"][0].evaluate("window.errors") == []


def test_line_it_numbers_keep_their_sign_in_front_on_an_arabic_page(new_page):
    for seed in range(200):
        state = GAME.setup({**GAME.default_config, "players": SEATS, "level": 4}, f"negative-{seed}")
        view = json.loads(json.dumps(GAME.view(state, {"role": "player", "player": "a"})))
        if any(str(card.get("face", "")).startswith("-") for card in view["market"]):
            break
    else:
        raise AssertionError("no market with a negative face in 200 seeds")
    page = open_device(new_page, "lineit", "player", "a", width=1366, height=650)
    _draw(page, view, "ar", "rtl")
    faces = page.locator(".lineit-cards--market .lineit-card__face")
    signs = faces.evaluate_all(
        """(faces) => faces.filter((face) => face.textContent.startsWith('\u2212')).map((face) => {
          const text = face.firstChild;
          const range = document.createRange();
          range.setStart(text, 0); range.setEnd(text, 1);
          const sign = range.getBoundingClientRect().left;
          range.setStart(text, text.length - 1); range.setEnd(text, text.length);
          return sign < range.getBoundingClientRect().left;
        })"""
    )
    assert signs and all(signs)  # "−10", never "10−"
    assert page.evaluate("window.errors") == []
