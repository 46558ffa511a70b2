"""Line-Up on the real pages of a class: every student screen fits the devices a class has (a Chromebook and
an iPad either way up) in every phase, the projector fits with 1 to 14 matches, the console, the projector
and both devices show a match the teacher ended, and axe-core finds nothing serious.

The session runs as in class (``live_site``: the ASGI app, its websocket and the game clock); the moves go
through the same services the websocket calls, or through the page where the control is what is tested.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games.engine.faces.art import face_svg
from games.engine.faces.monsters import MONSTERS
from tests.browser import server_side
from tests.browser.fit import (
    CONSOLES,
    PROJECTORS,
    assert_accessible,
    assert_fits,
    assert_inside,
    assert_names_readable,
    screenshot,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Aisha K.",
    "Ben O.",
    "Chloe L.",
    "Dev P.",
    "Ella W.",
    "Finn R.",
    "Grace T.",
    "Hugo M.",
    "Isla N.",
    "Jack D.",
    "Kemi A.",
    "Liam S.",
    "Maya F.",
    "Noah B.",
    "Olivia C.",
    "Priya V.",
    "Quinn H.",
    "Rosa G.",
    "Sam T.",
    "Theo J.",
    "Uma Z.",
    "Vik Y.",
    "Willow E.",
    "Xander Q.",
    "Yara U.",
    "Zac I.",
    "Alex P.",
    "Bea X.",
    "Cal W.",
    "Dina V.",
    "Eli U.",
    "Fay T.",
    "Gus S.",
    "Hana R.",
    "Ivo Q.",
    "Jade P.",
]

# What a student needs on screen to play, phase by phase.
ASKING = ".fc-turn, .fc-board .fc-face, .fc-pad .fc-q"
WAITING = ".fc-turn, .fc-board .fc-face, .fc-pad .fc-q"
NAMING = ".fc-turn, .fc-confirm button, .fc-confirm h3"
ROUND_OVER = ".fc-turn, .fc-result h3, .fc-result .fc-mini, .fc-ready button"
MATCH_OVER = ".fc-turn, .fc-result.is-match h3, .fc-result.is-match .fc-mini"


def in_thread(work):
    """Runs ``work`` in a thread of its own (see tests.browser.server_side)."""
    return server_side.call(work)


def retried(work):
    """``work()``: server_side.call already tries again while the test database is locked."""
    return work()


def start_session(classroom, teacher, students, **settings):
    """A running session of Line-Up with ``students`` seated in pairs, as the console's Start does."""
    return in_thread(lambda: _start_session(classroom, teacher, students, **settings))


def _start_session(classroom, teacher, students, **settings):
    from django.utils import timezone

    from games import services

    session = services.session_schedule(
        classroom=classroom,
        by=teacher,
        game="faces",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings={"turn_seconds": 300, "bot": "medium", **settings},
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    session.refresh_from_db()
    return session


def students_of(classroom, count):
    from tests.factories import enrolled_student

    return [enrolled_student(classroom, display_name=name) for name in NAMES[:count]]


def act(table, player, action, key):
    from games import services

    in_thread(
        lambda: retried(
            lambda: services.action_submit(table_id=table.pk, player=player, action=action, key=key)
        )
    )
    table.refresh_from_db()


@pytest.fixture
def match(live_site, signed_in, class_7b, ms_rivera):
    """A match of two students, each on their own device (opened at the Chromebook's size)."""
    from games.models import GameTable

    students = students_of(class_7b, 2)
    session = start_session(class_7b, ms_rivera, students)
    table = GameTable.objects.get(session=session)
    pages = {}
    for student in students:
        page = signed_in(live_site, student=student, width=1366, height=650)
        page.goto(f"{live_site}/play/{session.pk}/")
        page.get_by_role("heading", name="Your board: 24 faces left").wait_for()
        pages[f"s{student.pk}"] = page
    return session, table, pages


def assert_no_repeated_lines(page):
    lines = [line.strip() for line in page.locator(".fc-player").inner_text().splitlines() if line.strip()]
    repeated = sorted({line for line in lines if lines.count(line) > 1})
    assert not repeated, f"said twice: {repeated}"


def test_every_student_screen_fits_every_device_in_every_phase(match):
    _session, table, pages = match
    first = table.state["turn"]
    second = next(p for p in table.state["players"] if p != first)
    asker, waiter = pages[first], pages[second]
    asker.locator(".fc-turn.is-you").wait_for()

    assert_fits(asker, ASKING, label="Line-Up asking")
    assert_fits(waiter, WAITING, label="Line-Up waiting for the other player")

    # A question is asked and answered: the asker sees the answer, the other player it's their turn.
    from games.engine.faces.features import question_splits

    splits = question_splits(table.state, first)
    question = max(splits, key=lambda key: min(splits[key], 24 - splits[key]))
    asker.locator(f"[data-fk='q-{question}']").click()
    asker.get_by_text("Split quality:").wait_for()
    waiter.locator(".fc-turn.is-you").wait_for()
    assert_fits(asker, WAITING + ", .fc-feedback", label="Line-Up after an answer")
    assert_fits(waiter, ASKING + ", .fc-their-last", label="Line-Up asking after the other's question")

    # Naming a face asks for a confirmation first.
    table.refresh_from_db()
    target = table.state["rounds"][0]["secret"][first]
    waiter.locator("body").press(target.lower())
    waiter.get_by_role("alertdialog").wait_for()
    assert_fits(waiter, NAMING, label="Line-Up naming a face")
    waiter.keyboard.press("Enter")

    # The round's result: both faces, the ready button and the countdown.
    waiter.get_by_role("heading", name="You won round 1!").wait_for()
    asker.get_by_role("heading", name=re.compile(r"won round 1\.$")).wait_for()
    for name, page in (("winner", waiter), ("loser", asker)):
        assert_fits(page, ROUND_OVER, label=f"Line-Up round over ({name})")

    # Round two; then the match ends by a resignation: the result, with the faces.
    for page in (asker, waiter):
        page.get_by_role("button", name="Ready for the next round").click()
    asker.locator(".fc-turn.is-you").wait_for()
    waiter.get_by_role("button", name="Resign").click()
    waiter.get_by_role("button", name="Yes, resign").click()
    for name, page in (("winner", asker), ("loser", waiter)):
        page.locator(".fc-result.is-match").wait_for()
        assert_fits(page, MATCH_OVER, label=f"Line-Up match over ({name})")
        assert_no_repeated_lines(page)
        # The score agrees with the result: the winner has the rounds they needed.
        assert page.locator(".fc-score .is-winner .fc-wins").inner_text() == "2"
    for page in pages.values():
        assert page.errors == []


@pytest.mark.parametrize("tables", [1, 4, 8, 14])
def test_the_projector_fits_with_one_to_fourteen_matches(live_site, signed_in, class_7b, ms_rivera, tables):
    """28 students make 14 matches: every table's card is on the projector, none cut, at both sizes."""
    session = start_session(class_7b, ms_rivera, students_of(class_7b, 2 * tables))
    assert session.tables.count() == tables
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".table-card .fc-projector").nth(tables - 1).wait_for()
    assert_fits(
        projector,
        ".table-card, .fc-score-name, .fc-wins",
        label=f"Line-Up projector, {tables} tables",
        viewports=PROJECTORS,
    )
    # Legible from the back of the class: the names are at least as large as body text on a laptop.
    assert_names_readable(projector, ".fc-score-name", ".fc-score-name, .fc-round")
    assert projector.errors == []


def test_ending_the_game_early_shows_everywhere_and_stops_play(match, live_site, signed_in, ms_rivera):
    session, table, pages = match
    first = table.state["turn"]
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".fc-teacher").wait_for()
    watcher = signed_in(live_site, user=ms_rivera)  # a second console tab, left open
    watcher.goto(f"{live_site}/sessions/{session.pk}/")
    watcher.locator(".fc-teacher").wait_for()
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".fc-projector").wait_for()
    # One round is played, so the score at the end is 1-0.
    other = next(p for p in table.state["players"] if p != first)
    act(table, first, {"type": "name", "face": table.state["rounds"][0]["secret"][other]}, "win")
    pages[first].get_by_role("heading", name="You won round 1!").wait_for()

    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(re.compile(r"/results/$"))
    for page in pages.values():
        page.get_by_role("heading", name="Your teacher ended this match.").wait_for()
        assert page.get_by_text("It ended at").is_visible()
        assert page.locator(".fc button:enabled, .fc-clock").count() == 0
        assert page.locator("[data-session-status]").inner_text() == "Finished"
        assert_fits(page, ".fc-result h3, .fc-score", label="Line-Up ended by the teacher")
    for page in (watcher, projector):
        page.locator(".fc", has_text="Ended by the teacher").wait_for()
        assert page.locator(".table-card .countdown:visible").count() == 0
    # The results show the score at that moment, and no winner.
    names = {p["id"]: p["name"] for p in table.config["players"]}
    text = console.locator("main").inner_text()
    assert "Ended early by the teacher." in text and "Won by" not in text
    assert f"{names[first]}\t1" in text and f"{names[other]}\t0" in text
    for page in (*pages.values(), watcher, projector):
        assert page.errors == []


def test_no_serious_accessibility_problem_on_the_device_the_projector_and_the_console(
    match, live_site, signed_in, ms_rivera
):
    session, table, pages = match
    first = table.state["turn"]
    pages[first].locator(".fc-turn.is-you").wait_for()
    for pid, page in pages.items():
        assert_accessible(page, label="Line-Up device " + ("asking" if pid == first else "waiting"))
    pages[first].locator("body").press(table.state["left"][first][0].lower())
    pages[first].get_by_role("alertdialog").wait_for()
    assert_accessible(pages[first], label="Line-Up device naming a face")
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".fc-projector").wait_for()
    assert_accessible(projector, label="Line-Up projector")
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".fc-teacher").wait_for()
    assert_accessible(console, label="Line-Up console")
    assert_fits(
        console, ".fc-teacher .fc-score, .table-controls button", label="Line-Up console", viewports=CONSOLES
    )


def test_a_student_whose_device_drops_out_only_loses_turns_and_the_console_shows_it(
    match, live_site, signed_in, ms_rivera
):
    """A missed turn passes the turn (the default): a student whose tablet slept is not out of the match,
    and the console shows they are not connected."""
    from games import services

    session, table, pages = match
    first = table.state["turn"]
    other = next(p for p in table.state["players"] if p != first)
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".fc-teacher").wait_for()
    assert console.locator(".fc-away").count() == 0
    pages[first].close()  # the device of the student to move goes away
    away = console.locator(".fc-teacher-list li.is-away")
    away.wait_for()
    names = {p["id"]: p["name"] for p in table.config["players"]}
    assert away.locator("strong").inner_text() == names[first]
    assert "not connected" in away.inner_text()
    # Their turn runs out: it passes to the other student, the match goes on.
    table.refresh_from_db()
    in_thread(lambda: retried(lambda: services.deadline_sweep(now=table.deadline + 1)))
    table.refresh_from_db()
    assert table.status == "playing" and table.state["turn"] == other
    pages[other].locator(".fc-turn.is-you").wait_for()
    console.get_by_text(f"{names[other]} to move").wait_for()


def test_the_monster_board_is_played_fits_every_device_and_reads_well_on_an_ipad(
    live_site, signed_in, class_7b, ms_rivera
):
    """The teacher chose the monster board: both devices show 24 monsters drawn as the server draws them
    and the monster pad; the screen fits every device and axe finds nothing serious. The screenshot at
    the iPad's 1024x690 (test-results/fit/) is the one to look at when the drawing changes."""
    from games.models import GameTable

    students = students_of(class_7b, 2)
    session = start_session(class_7b, ms_rivera, students, board="monsters")
    table = GameTable.objects.get(session=session)
    assert table.config["board"] == "monsters"
    first = table.state["turn"]
    student = next(s for s in students if f"s{s.pk}" == first)
    page = signed_in(live_site, student=student, width=1024, height=690)
    page.goto(f"{live_site}/play/{session.pk}/")
    page.get_by_role("heading", name="Your board: 24 faces left").wait_for()
    page.locator(".fc-turn.is-you").wait_for()
    pad = page.locator(".fc-pad .fc-q")
    assert pad.count() == 20
    assert [pad.nth(i).get_attribute("data-fk") for i in range(20)] == [f"q-{key}" for key in MONSTERS.keys]
    assert "Does your monster have horns?" in (
        page.locator("[data-fk='q-horns']").get_attribute("title") or ""
    )
    board = table.state["rounds"][0]["board"]
    drawn = page.evaluate(
        "() => [...document.querySelectorAll('.fc-board .fc-face svg')].map((s) => s.outerHTML)"
    )
    assert len(drawn) == 24

    def shapes(svg):  # the browser serialises attributes its own way: compare the drawing's shapes
        return re.findall(r"<(path|circle|ellipse|rect|clipPath)\b", svg)

    assert [shapes(svg) for svg in drawn] == [shapes(face_svg(face)) for face in board]
    tiles = page.locator(".fc-board .fc-face")
    smallest = min(tiles.nth(i).bounding_box()["width"] for i in range(24))
    assert smallest >= 60, f"a monster tile is only {smallest}px wide"
    screenshot(page, "Line-Up monsters iPad 1024x690")
    assert_fits(page, ASKING, label="Line-Up monsters asking")
    assert_accessible(page, label="Line-Up monsters device")
    # A monster is named by its letter, as a person is (Escape cancels).
    monster = board[5]
    page.locator("body").press(monster["id"].lower())
    page.get_by_role("alertdialog").get_by_role("heading", name=f"Name {monster['name']}?").wait_for()
    page.keyboard.press("Escape")
    page.get_by_role("alertdialog").wait_for(state="detached")
    # A monster question is asked and answered like any other.
    question = max(
        MONSTERS.keys,
        key=lambda key: min(
            sum(key in f["features"] for f in board), 24 - sum(key in f["features"] for f in board)
        ),
    )
    page.locator(f"[data-fk='q-{question}']").click()
    page.get_by_text("Split quality:").wait_for()
    assert page.errors == []


@pytest.mark.parametrize("path", ["/games/faces/how-to-play/", "/games/faces/guide/"])
def test_the_guides_with_both_boards_have_no_serious_accessibility_problem(live_site, new_page, path):
    page = new_page(width=1024, height=690)
    page.goto(live_site + path)
    for summary in page.locator("details summary").all():  # open the pads' question lists
        summary.click()
    assert_accessible(page, label="Line-Up " + path.strip("/").replace("/", " "))


@pytest.mark.parametrize("students", [3, 27])
def test_the_projector_keeps_a_match_against_the_computer_whole_while_playing_and_when_over(
    live_site, signed_in, class_7b, ms_rivera, students
):
    """An odd class leaves one student playing the computer: its name with its level and the table's
    "Match over" line are read whole at both sizes, among 2 or 14 tables."""
    from games.models import GameTable

    session = start_session(class_7b, ms_rivera, students_of(class_7b, students))
    tables = session.tables.count()
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".table-card .fc-projector").nth(tables - 1).wait_for()
    projector.locator(".fc-bot").first.wait_for()
    whole = ".fc-score-name, .fc-round, .fc-wins"
    label = f"Line-Up projector, {students} students"
    screenshot(projector, f"{label} playing")
    assert_fits(projector, ".table-card, " + whole, label=label, viewports=PROJECTORS)
    assert_inside(projector, whole, ".table-card", label=label, viewports=PROJECTORS)
    assert_names_readable(projector, ".fc-score-name", whole)

    bots = 0
    for table in GameTable.objects.filter(session=session):
        bots += sum(1 for level in table.state["bots"].values() if level)
        student = next(pid for pid, level in table.state["bots"].items() if not level)
        act(table, student, {"type": "resign"}, f"resign-{table.pk}")
    assert bots == 1
    projector.get_by_text("Match over").nth(tables - 1).wait_for()
    projector.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(projector, f"{label} over")
    assert_fits(projector, ".table-card, " + whole, label=f"{label}, over", viewports=PROJECTORS)
    assert_inside(projector, whole, ".table-card", label=f"{label}, over", viewports=PROJECTORS)
    assert_names_readable(projector, ".fc-score-name", whole)
    assert projector.errors == []
