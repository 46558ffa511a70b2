"""A class goes from game to game as a teacher of 28 runs it: Play now, the devices follow the class
(the game shows at once and is joined with one tap), the projector's lobby says who is still missing, the
console tells the truth, and after the end each device offers the next game or goes back to wait.
Every screen on the way is measured on the devices it is built for and checked by axe-core."""

from __future__ import annotations

import re

import pytest

from games.models import GameSession, GameTable
from tests.browser import server_side
from tests.browser.fit import CONSOLES, PROJECTORS, STUDENT_DEVICES, assert_accessible, assert_fits
from tests.factories import enrolled_student

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _play_now(console, base_url, game_value: str, title: str) -> GameSession:
    console.goto(f"{base_url}/dashboard/")
    console.get_by_role("link", name="Schedule a game").click()
    console.get_by_label("Game", exact=True).select_option(game_value)
    console.locator("#id_title").fill(title)
    console.get_by_role("button", name="Play now").click()
    console.get_by_role("heading", name=title).wait_for()
    return GameSession.objects.get(title=title)


def test_a_class_follows_the_teacher_from_game_to_game(live_site, signed_in, class_7b, ms_rivera):
    students = [enrolled_student(class_7b, display_name=name) for name in ("Ava M.", "Ben K.", "Chloe L.")]
    devices = []
    for student, (width, height) in zip(students, STUDENT_DEVICES.values(), strict=True):
        page = signed_in(live_site, student=student, width=width, height=height)
        page.goto(f"{live_site}/me/")
        page.get_by_text("When your teacher opens a game, it appears here").wait_for()
        devices.append(page)
    assert_fits(devices[0], "h1, [data-no-sessions]", label="student home waiting")
    assert_accessible(devices[0], label="student home")

    # Play now: scheduled and open in one step; every waiting device shows the game without a reload.
    console = signed_in(live_site, user=ms_rivera)
    session = _play_now(console, live_site, "wordup", "Spelling bee")
    assert session.status == GameSession.Status.LOBBY
    console.get_by_role("button", name="Start the game").wait_for()
    assert console.locator(".message").inner_text().strip().endswith("see the game on their devices.")
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.get_by_text("Still to join: 3 students").wait_for()
    assert projector.locator(".projector-code").inner_text().strip() == class_7b.join_code
    assert projector.locator("img.projector-qr").evaluate("img => img.complete && img.naturalWidth > 0")

    for page in devices:
        card = page.locator("[data-open-session]", has_text="Spelling bee")
        card.get_by_role("button", name="Join").wait_for()
    assert_fits(devices[1], "[data-open-session] button", label="student home with an open game")
    for page in devices:
        page.get_by_role("button", name="Join").click()  # one tap: straight into the lobby
        page.get_by_text("Wait for your teacher to start the game").wait_for()
    projector.get_by_text("3 students in, 3 connected now").first.wait_for()
    devices[0].get_by_text("2 classmates are in with you.").wait_for()
    assert projector.locator("[data-missing]").is_hidden()
    assert_fits(
        projector,
        ".projector-code, .projector-qr, [data-participants]",
        label="projector lobby",
        viewports=PROJECTORS,
    )
    assert_accessible(projector, label="projector lobby")
    assert_fits(console, "[data-control=start]", label="console lobby", viewports=CONSOLES)
    assert_accessible(console, label="console lobby")

    # The console's log reads as sentences with names, and the planned time gives way to the real one.
    console.locator(".control-log-panel summary").click()
    console.get_by_text(re.compile(r"Rivera opened the lobby\.")).wait_for()
    console.get_by_text(re.compile(r"Lobby opened \d\d:\d\d")).wait_for()
    console.get_by_role("button", name="Start the game").click()
    console.get_by_text(re.compile(r"Rivera started the game at 1 table\.")).wait_for()
    console.get_by_text(re.compile(r"Started \d\d:\d\d")).wait_for()
    assert console.get_by_text("Scheduled. The lobby opens").count() == 0

    # The teacher ends the game: every device says so and offers what comes next.
    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(re.compile(r"/results/$"))
    assert_accessible(console, label="results")
    for page in devices:
        page.get_by_role("heading", name="What next?").wait_for()
        page.get_by_text("No other game is open yet.").wait_for()
        page.get_by_text(re.compile(r"Back to My games in \d+ s")).wait_for()
        assert page.locator(".table-card button:not([disabled])").count() == 0

    # One student stays; the next game opens and every device offers it with one tap.
    devices[2].get_by_role("button", name="Stay on this page").click()
    second = _play_now(console, live_site, "faces", "Guess who")
    for page in devices:
        page.locator("[data-next-game] [data-open-session]", has_text="Guess who").wait_for()
    devices[0].locator("[data-next-game]").get_by_role("button", name="Join").click()
    devices[0].wait_for_url(re.compile(rf"/play/{second.pk}/$"))
    devices[0].get_by_text("Wait for your teacher to start the game").wait_for()
    assert_accessible(devices[0], label="student device in a lobby")

    for page in [console, projector, *devices]:
        assert page.errors == []


def test_a_device_with_no_next_game_goes_back_to_wait_by_itself(live_site, signed_in, class_7b, ms_rivera):
    from games import services
    from tests.factories import started_session

    ava = enrolled_student(class_7b, display_name="Ava M.")
    session = started_session(class_7b, ms_rivera, [ava], "faces")
    page = signed_in(live_site, student=ava)
    page.goto(f"{live_site}/play/{session.pk}/")
    page.locator(".table-card").wait_for()
    page.clock.install()
    server_side.call(services.session_end, session=session, by=ms_rivera)
    page.get_by_text(re.compile(r"Back to My games in \d+ s")).wait_for()
    page.clock.run_for(61_000)
    page.wait_for_url(re.compile(r"/me/$"))
    page.get_by_text("When your teacher opens a game, it appears here").wait_for()


def test_a_finished_table_loses_its_controls_on_the_console(live_site, signed_in, class_7b, ms_rivera):
    from games import services
    from tests.factories import started_session

    students = [enrolled_student(class_7b, display_name=f"Student {n}.") for n in range(4)]
    session = started_session(class_7b, ms_rivera, students, "faces")
    tables = list(GameTable.objects.filter(session=session).order_by("number"))
    assert len(tables) == 2
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    for table in tables:
        console.locator(f'[data-table-id="{table.pk}"] .table-controls').wait_for()
    server_side.call(services.table_end, table=tables[0], by=ms_rivera)
    console.locator(f'[data-table-id="{tables[0].pk}"] .table-controls').wait_for(state="hidden")
    assert console.locator(f'[data-table-id="{tables[1].pk}"] .table-controls').is_visible()
    console.locator(".control-log-panel summary").click()
    console.get_by_text(re.compile(r"Rivera ended table 1\.")).wait_for()


def test_the_projector_lobby_of_a_class_of_28_fits_every_projector(live_site, signed_in, class_7b, ms_rivera):
    from datetime import timedelta

    from django.utils import timezone

    from games import services

    students = [
        enrolled_student(class_7b, display_name=f"Student{n:02d} {chr(65 + n % 26)}.") for n in range(28)
    ]
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    server_side.call(services.session_open_lobby, session=session, by=ms_rivera)
    for student in students[:14]:
        server_side.call(services.session_join, session=session, student=student)
    projector = signed_in(live_site, user=ms_rivera, width=1280, height=720)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.get_by_text("Still to join: 14 students").wait_for()
    assert_fits(
        projector,
        ".projector-code, .projector-qr, [data-participants] li, [data-missing-names] li",
        label="projector lobby of 28",
        viewports=PROJECTORS,
    )
