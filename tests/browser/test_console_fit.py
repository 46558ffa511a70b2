"""The console on the teacher's screens. Its Students panel: students with accommodations keep their name,
badge and buttons whole inside the panel, and a latecomer's "Let in" is in view without scrolling, however
many classmates come before them in the alphabet. Start pressed with nobody in the lobby says, in the
console's message line, to wait for the students (the server refuses it with a 400 and that sentence)."""

from __future__ import annotations

import pytest

from tests.browser import server_side
from tests.browser.fit import CONSOLES, assert_accessible, assert_fits, assert_inside, screenshot

pytestmark = [pytest.mark.browser]
off_loop = server_side.call

CLASSMATES = ["Amir B.", "Bea C.", "Caleb D.", "Dana E.", "Eli F.", "Fatima G.", "Gus H.", "Hana I.",
              "Ivo J.", "Jade K.", "Kofi L.", "Lena M."]  # fmt: skip


def _console(live_site, signed_in, classroom, teacher):
    """A running Line-it for 12 students, two of them with accommodations, and a latecomer with
    accommodations (last in the alphabet) waiting to be let in."""
    from classrooms.services import student_accommodations_set
    from games import services
    from tests.factories import enrolled_student, started_session

    def set_up():
        students = [enrolled_student(classroom, display_name=name) for name in CLASSMATES]
        student_accommodations_set(student=students[0], by=teacher, extra_time="2", read_aloud=True)
        student_accommodations_set(student=students[5], by=teacher, colour_safe=True, reduced_motion=True)
        late = enrolled_student(classroom, display_name="Zofia W.")
        student_accommodations_set(student=late, by=teacher, larger_text=True, fewer_options=True)
        session = started_session(classroom, teacher, students, "lineit")
        services.session_join(session=session, student=late)  # after the start: waits to be let in
        return session

    session = off_loop(set_up)
    console = signed_in(live_site, user=teacher, width=1366, height=650)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.get_by_role("button", name="Let in").wait_for()
    return console


def test_students_with_accommodations_keep_remove_and_let_in_whole_and_let_in_in_view(
    live_site, signed_in, class_7b, ms_rivera
):
    console = _console(live_site, signed_in, class_7b, ms_rivera)
    screenshot(console, "console students with accommodations")
    row = ".participant > *, .participant button"
    assert_inside(console, row, ".participant", label="console students' rows", viewports=CONSOLES)
    panel = ".participants-panel"
    assert_inside(console, ".participant", panel, label="console students", viewports=CONSOLES)
    assert_fits(console, ".participant.is-waiting button", label="console Let in", viewports=CONSOLES)
    assert console.locator(".participant-accommodations").count() == 3
    assert_accessible(console, label="console students with accommodations")


def test_start_with_nobody_in_the_lobby_says_to_wait_in_the_message_line(
    live_site, signed_in, class_7b, ms_rivera
):
    from django.utils import timezone

    from games import services
    from games.models import GameSession

    def set_up():
        session = services.session_schedule(
            classroom=class_7b, by=ms_rivera, game="lineit",
            scheduled_for=timezone.now() + timezone.timedelta(hours=1), settings={},
        )  # fmt: skip
        services.session_open_lobby(session=session, by=ms_rivera)
        return session

    session = off_loop(set_up)
    console = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.get_by_role("button", name="Start the game").click()
    refusal = "Nobody has joined yet: wait for your students to join, then start the game."
    console.get_by_role("status").filter(has_text=refusal).wait_for()
    assert "is-error" in console.locator("#console-message").get_attribute("class")
    assert console.get_by_role("button", name="Start the game").is_visible()
    assert console.locator("[data-session-status]").inner_text() == "Lobby open"
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY
    assert console.errors == []
