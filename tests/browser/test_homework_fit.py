"""The student's games page with homework on the devices of a class: every Join, Start and Carry on is in
view without scrolling (under an open game, with a late homework carried on, with larger text), and a
last attempt under way says to carry on, never "0 attempts left" beside Carry on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser import server_side
from tests.browser.fit import CHROMEBOOK, IPAD_PORTRAIT, STUDENT_DEVICES, assert_accessible, assert_fits

pytestmark = [pytest.mark.browser]
off_loop = server_side.call
BUTTONS = "[data-homework] button, .student-games button"


def _three_homework(classroom, teacher, student):
    """Word Up (one attempt, started, and now late), Line-it and Line-Up (two attempts)."""
    from django.utils import timezone

    from games import services
    from games.models import Assignment

    def set_up():
        now = timezone.now()
        words = services.assignment_create(
            classroom=classroom, by=teacher, game="wordup", title="Words this week",
            opens_at=now, due_at=now + timedelta(hours=12), attempts_allowed=1,
        )  # fmt: skip
        services.assignment_create(
            classroom=classroom, by=teacher, game="lineit", title="Number lines",
            opens_at=now, due_at=now + timedelta(days=3),
        )  # fmt: skip
        services.assignment_create(
            classroom=classroom, by=teacher, game="faces", title="Guess Who",
            opens_at=now, due_at=now + timedelta(days=5), attempts_allowed=2,
        )  # fmt: skip
        services.attempt_start(assignment=words, student=student)
        Assignment.objects.filter(pk=words.pk).update(due_at=now - timedelta(days=1))

    off_loop(set_up)


def _home(signed_in, live_site, student):
    page = signed_in(live_site, student=student, width=1366, height=650)
    page.goto(f"{live_site}/me/")
    page.locator("[data-homework] button").first.wait_for()
    return page


def test_start_and_carry_on_are_in_view_under_an_open_game_on_every_device(
    live_site, signed_in, class_7b, ms_rivera, ava
):
    from django.utils import timezone

    from games import services

    _three_homework(class_7b, ms_rivera, ava)
    session = off_loop(
        services.session_schedule, classroom=class_7b, by=ms_rivera, game="lineup",
        scheduled_for=timezone.now() + timedelta(hours=1), settings={},
    )  # fmt: skip
    off_loop(services.session_open_lobby, session=session, by=ms_rivera)
    page = _home(signed_in, live_site, ava)
    page.get_by_role("button", name="Join").wait_for()
    assert page.locator(BUTTONS).all_inner_texts() == ["Join", "Carry on", "Start", "Start"]
    assert_fits(page, BUTTONS, label="student home, open game and homework", viewports=STUDENT_DEVICES)
    assert_accessible(page, label="student home, open game and homework")
    assert page.errors == []


def test_with_larger_text_start_and_carry_on_are_in_view_on_a_chromebook(
    live_site, signed_in, class_7b, ms_rivera, ava
):
    from classrooms.services import student_accommodations_set

    _three_homework(class_7b, ms_rivera, ava)
    off_loop(student_accommodations_set, student=ava, by=ms_rivera, larger_text=True)
    page = _home(signed_in, live_site, ava)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"
    viewports = {**CHROMEBOOK, **IPAD_PORTRAIT}
    assert_fits(page, "[data-homework] button", label="student home, larger text", viewports=viewports)


def test_a_last_attempt_under_way_says_carry_on_not_no_attempts_left(
    live_site, signed_in, class_7b, ms_rivera, ava
):
    _three_homework(class_7b, ms_rivera, ava)
    card = _home(signed_in, live_site, ava).locator("[data-homework]", has_text="Words this week")
    assert card.get_by_role("button").inner_text() == "Carry on"
    assert "Your last attempt: carry on to finish it." in card.inner_text()
    assert "attempts left" not in card.inner_text()
