"""The switcher works by keyboard; an Arabic page mirrors (the header reads from the right) and still
fits a Chromebook and a portrait iPad; a student whose teacher set Arabic gets it on any device, game
screen included, with the rule-bound boards still left to right; axe finds nothing serious."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classrooms.models import Student
from games import services as game_services
from tests.browser.fit import CHROMEBOOK, IPAD_PORTRAIT, assert_accessible, assert_fits
from tests.factories import started_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_SCREENS = {**CHROMEBOOK, **IPAD_PORTRAIT}


def _header_reads_from_the_right(page) -> bool:
    """The brand (first in the header) sits to the right of the navigation links (after it)."""
    return page.evaluate(
        """() => {
          const brand = document.querySelector(".site-nav .brand").getBoundingClientRect();
          const links = document.querySelector(".site-nav ul").getBoundingClientRect();
          return brand.left > links.right - 1;
        }"""
    )


def test_the_switcher_turns_the_join_page_arabic_by_keyboard_and_it_mirrors(live_site, new_page, class_7b):
    page = new_page(width=1366, height=650)
    page.goto(f"{live_site}/join/")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert not _header_reads_from_the_right(page)
    page.get_by_label("Language").focus()
    page.keyboard.press("End")  # the last language of the list: العربية
    page.get_by_label("Language").press("Tab")
    page.keyboard.press("Enter")  # the switcher's button
    page.wait_for_function("document.documentElement.lang === 'ar'")
    # (the new page's <html> arrives before its header: on a busy machine the header was not there yet)
    page.wait_for_load_state("domcontentloaded")
    assert page.url == f"{live_site}/join/"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert _header_reads_from_the_right(page)
    text_start = page.evaluate("getComputedStyle(document.querySelector('main h1')).textAlign")
    assert text_start in ("start", "right")
    assert_fits(
        page,
        "main input, main button[type=submit], .language-switcher select",
        label="join ar",
        viewports=SMALL_SCREENS,
    )
    assert_accessible(page, label="join in Arabic")


def test_a_student_set_to_arabic_gets_it_on_any_device_game_screen_included(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    Student.objects.filter(pk=ava.pk).update(language="ar")
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    page = signed_in(live_site, student=ava, width=1366, height=650)
    page.goto(live_site + reverse("student_home"))
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert_accessible(page, label="student home in Arabic")
    page.goto(live_site + reverse("games:play", args=[session.pk]))
    page.locator(".lu-rack").first.wait_for()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # The rack's places 1 to 5 still read left to right: place 1 is the leftmost.
    assert page.locator(".lu-rack").first.get_attribute("dir") == "ltr"
    slots = "[...document.querySelector('.lu-rack').querySelectorAll('.lu-slot')]"
    places = page.evaluate(f"{slots}.map((slot) => slot.getBoundingClientRect().left)")
    assert len(places) == 5 and places == sorted(places)
    assert_fits(
        page,
        ".play-bar .language-switcher select, .play-bar .language-switcher button",
        label="play bar ar",
        viewports=SMALL_SCREENS,
    )
    assert page.errors == []


def test_a_teachers_dashboard_in_arabic_mirrors_fits_and_passes_axe(
    live_site, signed_in, ms_rivera, class_7b
):
    ms_rivera.language = "ar"
    ms_rivera.save()
    page = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    page.goto(live_site + reverse("dashboard"))
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert _header_reads_from_the_right(page)
    assert_fits(page, ".site-nav a, .language-switcher select", label="dashboard ar", viewports=SMALL_SCREENS)
    assert_accessible(page, label="dashboard in Arabic")
    page.goto(live_site + reverse("preferences"))
    assert_accessible(page, label="my preferences in Arabic")
    page.locator("main select").select_option("es")
    page.locator("main button[type=submit]").click()
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.evaluate("document.documentElement.dir") == "ltr"


def test_on_an_arabic_replay_the_left_arrow_steps_forward_like_the_mirrored_buttons(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    for _step in range(2):  # two "move on"s: a replay of three steps
        game_services.table_advance(table=session.tables.get(), by=ms_rivera)
    game_services.session_end(session=session, by=ms_rivera)
    ms_rivera.language = "ar"
    ms_rivera.save()
    page = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    page.goto(live_site + reverse("games:replay", args=[session.pk, 1]))
    label = page.locator("[data-step-label]")
    page.wait_for_function("document.querySelector('[data-step-label]').textContent.includes('1')")
    assert page.locator("[data-step=prev]").get_attribute("aria-keyshortcuts") == "ArrowRight"
    first = label.inner_text()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "(text) => document.querySelector('[data-step-label]').textContent !== text", arg=first
    )
    assert page.locator("[data-step-range]").input_value() == "2"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-step-range]').value === '1'")
    assert page.errors == []


def test_the_arabic_projector_shows_the_join_address_and_the_games_title_left_to_right(
    live_site, signed_in, class_7b, ms_rivera
):
    """ "127.0.0.1:8320/join", never "join/127.0.0.1:8320"; "Line Up!", never "!Line Up"."""
    ms_rivera.language = "ar"
    ms_rivera.save()
    session = game_services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    game_services.session_open_lobby(session=session, by=ms_rivera)  # the lobby shows the join address
    page = signed_in(live_site, user=ms_rivera, width=1366, height=768)
    page.goto(live_site + reverse("games:projector", args=[session.pk]))
    first_left_of_last = """(el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const texts = [];
      while (walker.nextNode()) if (walker.currentNode.textContent.trim()) texts.push(walker.currentNode);
      const range = document.createRange();
      const first = texts[0], last = texts[texts.length - 1];
      range.setStart(first, 0); range.setEnd(first, 1);
      const start = range.getBoundingClientRect().left;
      range.setStart(last, last.length - 1); range.setEnd(last, last.length);
      return start < range.getBoundingClientRect().left;
    }"""
    address = page.locator(".projector-join-text strong")
    assert address.inner_text().endswith("/join")
    assert address.evaluate(first_left_of_last)
    assert page.locator(".projector-header h1 bdi").evaluate(first_left_of_last)
    assert page.errors == []
