"""Accommodations on a real student device at 1366x650: one game per accommodation, the screen still
fits, axe stays clean with larger text, and read aloud has audio for every piece of text on screen.

These run the whole product (``live_site``) with sessions made through ``games.services``.
"""

from __future__ import annotations

import pytest

from tests.browser import server_side
from tests.browser.fit import CHROMEBOOK, assert_accessible, assert_fits, screenshot

pytestmark = [pytest.mark.browser]
off_loop = server_side.call
FAKE_WAV = b"RIFF\x24\x00\x00\x00WAVEfmt fake"

WORDUP_PLAY = ".wu-board .wu-square, .wu-board .wu-pawn, .wu-move button, .wu-clock"
LINEIT_PLAY = ".lineit-status__turn, .lineit-market .lineit-card, .lineit-mine h3, .lineit-hand h3"
FACES_PLAY = ".fc-turn, .fc-board .fc-face, .fc-pad .fc-q"
LINEUP_PLAY = ".lu-rack .lu-card, .lu-clock"


def _set(student, teacher, **values):
    from classrooms.services import student_accommodations_set

    off_loop(student_accommodations_set, student=student, by=teacher, **values)


def _device(signed_in, live_site, game, classroom, teacher, students, who, ready: str):
    from tests.factories import started_session

    session = off_loop(started_session, classroom, teacher, students, game)
    page = signed_in(live_site, student=who, width=1366, height=650)
    page.goto(f"{live_site}/play/{session.pk}/")
    page.locator(ready).first.wait_for()
    return session, page


def test_larger_text_in_word_up_still_fits_and_axe_is_clean(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    _set(ava, ms_rivera, larger_text=True)
    _session, page = _device(
        signed_in, live_site, "wordup", class_7b, ms_rivera, [ava, ben], ava, ".wu-board"
    )
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"
    assert_fits(page, WORDUP_PLAY, label="wordup larger text", viewports=CHROMEBOOK)
    assert_accessible(page, label="wordup larger text")
    screenshot(page, "accommodations wordup larger text")


def test_larger_text_in_line_up_still_fits(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    _set(ava, ms_rivera, larger_text=True)
    _session, page = _device(signed_in, live_site, "lineup", class_7b, ms_rivera, [ava, ben], ava, ".lu")
    assert_fits(page, LINEUP_PLAY, label="lineup larger text", viewports=CHROMEBOOK, require=False)
    assert_accessible(page, label="lineup larger text")


def test_reduced_motion_in_line_it_stops_every_transition(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    _set(ava, ms_rivera, reduced_motion=True)
    _session, page = _device(
        signed_in, live_site, "lineit", class_7b, ms_rivera, [ava, ben], ava, ".lineit-market"
    )
    moving = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter((el) => {
            const style = getComputedStyle(el);
            const durations = (style.transitionDuration + ',' + style.animationDuration).split(',');
            return durations.some((d) => parseFloat(d) > 0);
        }).length"""
    )
    assert moving == 0
    assert_fits(page, LINEIT_PLAY, label="lineit reduced motion", viewports=CHROMEBOOK)


def test_colour_safe_in_word_up_changes_only_that_device(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    _set(ava, ms_rivera, colour_safe=True)
    session, mine = _device(signed_in, live_site, "wordup", class_7b, ms_rivera, [ava, ben], ava, ".wu-board")
    theirs = signed_in(live_site, student=ben, width=1366, height=650)
    theirs.goto(f"{live_site}/play/{session.pk}/")
    theirs.locator(".wu-board").wait_for()
    orange = (
        "() => getComputedStyle(document.querySelector('.wu-root')).getPropertyValue('--wu-orange').trim()"
    )
    assert mine.evaluate(orange) == "#a34a00"
    assert theirs.evaluate(orange) == "#b94f0c"
    assert theirs.evaluate("() => document.body.className") == ""
    assert_fits(mine, WORDUP_PLAY, label="wordup colour safe", viewports=CHROMEBOOK)
    assert_accessible(mine, label="wordup colour safe")


def test_read_aloud_in_line_up_guess_who_has_audio_for_every_piece(
    live_site, signed_in, class_7b, ms_rivera, ava, ben, tmp_path, monkeypatch
):
    from django.test import override_settings

    from games import speech

    monkeypatch.setattr(speech, "synthesize", lambda text, voice: FAKE_WAV)
    _set(ava, ms_rivera, read_aloud=True)
    _set(ben, ms_rivera, read_aloud=True)
    with override_settings(SPEECH_AUDIO_DIR=tmp_path / "speech"):
        session, mine = _device(
            signed_in, live_site, "faces", class_7b, ms_rivera, [ava, ben], ava, ".fc-board"
        )
        theirs = signed_in(live_site, student=ben, width=1366, height=650)
        theirs.goto(f"{live_site}/play/{session.pk}/")
        theirs.locator(".fc-board").wait_for()
        for page, who in ((mine, "Ava"), (theirs, "Ben")):  # one asks, one waits: both screens are read
            assert page.get_by_role("button", name="Read aloud").is_visible()
            pieces = page.evaluate("() => window.ClassplayReadAloud.pieces()")
            assert len(pieces) >= 3
            statuses = page.evaluate(SPEAK_EACH, pieces)
            assert {text: code for text, code in statuses.items() if code != 200} == {}, who
            controls = f"{FACES_PLAY}, [data-read-aloud-start]"  # the button stays on screen too
            assert_fits(page, controls, label=f"faces read aloud ({who})", viewports=CHROMEBOOK)
            assert_accessible(page, label=f"faces read aloud ({who})")
        screenshot(mine, "accommodations faces read aloud")


#: Asks the server for the audio of each piece, as the device does without a voice of its own.
SPEAK_EACH = """async (pieces) => {
    const url = document.querySelector('[data-read-aloud]').dataset.readAloud;
    const token = document.querySelector('[name=csrfmiddlewaretoken]').value;
    const out = {};
    for (const text of pieces) {
        const body = new FormData();
        body.append('text', text);
        const response = await fetch(url, {method: 'POST', body, headers: {'X-CSRFToken': token}});
        out[text] = response.status;
    }
    return out;
}"""


def test_the_console_marks_the_seat_and_the_projector_does_not(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    from tests.factories import started_session

    _set(ava, ms_rivera, extra_time="2", read_aloud=True)
    session = off_loop(started_session, class_7b, ms_rivera, [ava, ben], "lineit")
    console = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    badge = console.locator(".participant-accommodations")
    badge.first.wait_for()
    assert badge.count() == 1
    assert "Double time (×2), Read aloud" in badge.inner_text()
    assert_accessible(console, label="console with accommodations")
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".lineit").first.wait_for()
    assert "Double time" not in projector.content() and "Read aloud" not in projector.content()


def test_the_students_page_sets_accommodations_by_keyboard_and_axe_is_clean(
    live_site, signed_in, class_7b, ms_rivera, ava
):
    page = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    page.goto(f"{live_site}/students/{ava.pk}/?class={class_7b.pk}")
    assert_accessible(page, label="student page with accommodations")
    page.get_by_label("Time in games").select_option("1.5")
    page.get_by_label("Read aloud").check()
    page.get_by_label("Why (kept in the accommodations history)").fill("Reading support plan")
    page.get_by_role("button", name="Save accommodations").press("Enter")
    page.get_by_text("Accommodations saved.").wait_for()
    history = page.locator("section[aria-labelledby=accommodation-history-heading]")
    assert "Reading support plan" in history.inner_text()
    assert "Time and a half (×1.5), Read aloud" in history.inner_text()
    assert_accessible(page, label="student page after saving accommodations")


def test_fewer_options_in_word_up_shows_two_choices_that_fit(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    from games.models import GameTable
    from tests.browser import test_wordup_fit as wordup

    for student in (ava, ben):  # whoever rolls first is asked
        _set(student, ms_rivera, fewer_options=True)
    session = wordup._start(class_7b, ms_rivera, [ava, ben])
    table = GameTable.objects.get(session=session)
    first = wordup._steer(table.pk, "question", "multiple_choice")
    student = ava if first == f"s{ava.pk}" else ben
    page = wordup._device(signed_in, live_site, session, student)
    wordup._play(table.pk, first, {"type": "roll"})
    wordup._phase(page, "answer", ".wu-move .wu-mc")
    assert page.locator(".wu-move .wu-mc button").count() == 2
    assert_fits(
        page, WORDUP_PLAY + ", .wu-move .wu-mc button", label="wordup fewer options", viewports=CHROMEBOOK
    )
    assert_accessible(page, label="wordup fewer options")
