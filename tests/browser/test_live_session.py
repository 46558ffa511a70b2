"""A whole live session in real browsers, through the real pages, websocket and clock (issue: the live
runtime): a teacher schedules and starts a Line Up! game, three students join on their own devices and
play a round; one student's connection drops mid-phase and comes back with the team's answer intact; the
teacher pauses (every clock freezes) and resumes; the session ends with results."""

import re

import pytest

from games.models import GameSession, GameTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


RACK_IS = (
    "want => [...document.querySelectorAll('[data-rack] [data-card]')].map(c => c.dataset.card).join()==want"
)


def _rack(page) -> list[str]:
    return page.locator("[data-rack] [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")


def _seconds(text: str) -> int:
    minutes, seconds = text.strip().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_whole_session_with_a_dropped_connection_a_pause_and_results(
    live_site, signed_in, class_7b, ms_rivera
):
    from tests.factories import enrolled_student

    students = [enrolled_student(class_7b, display_name=name) for name in ("Ava M.", "Ben K.", "Chloe L.")]

    # The teacher schedules the game through the form and opens the lobby from the console.
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/dashboard/")
    console.get_by_role("link", name="Schedule a game").click()
    console.get_by_label("Game", exact=True).select_option("lineup")
    console.locator("#id_title").fill("Planets and rivers")
    # Line Up!'s own: Word Up has a "Seconds to answer" too, shown until the form's script has run.
    line_up = console.locator("[data-game-settings='lineup']")
    line_up.get_by_role("spinbutton", name="Seconds to answer").fill("120")
    console.get_by_role("button", name="Schedule for the start time").click()
    console.get_by_role("heading", name="Planets and rivers").wait_for()
    session = GameSession.objects.get(title="Planets and rivers")
    assert session.settings["answer_seconds"] == 120
    console.get_by_role("button", name="Open the lobby now").click()
    console.get_by_role("button", name="Start the game").wait_for()

    # Three students see the game on their home page and join with one tap each.
    devices = []
    for student, size in zip(students, [(1366, 768), (1024, 768), (820, 1180)], strict=True):
        page = signed_in(live_site, student=student, width=size[0], height=size[1])
        page.goto(f"{live_site}/me/")
        page.locator("[data-open-session]", has_text="Planets and rivers").get_by_role(
            "button", name="Join"
        ).click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices.append(page)
    console.get_by_text("3 students in, 3 connected now").wait_for()
    projector = signed_in(live_site, user=ms_rivera)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")

    console.get_by_role("button", name="Start the game").click()
    for page in devices:
        page.locator("[data-rack] [data-card]").first.wait_for()
    table = GameTable.objects.get(session=session)
    teams = {team: info["members"] for team, info in table.state["teams"].items()}
    pages = {f"s{student.pk}": page for student, page in zip(students, devices, strict=True)}
    pair = next(members for members in teams.values() if len(members) == 2)
    dropper, partner = pages[pair[0]], pages[pair[1]]

    # A student moves a card; the partner sees the team's rack change.
    before = _rack(dropper)
    dropper.locator("[data-rack] [data-card]").first.focus()
    dropper.keyboard.press("ArrowRight")
    moved = [before[1], before[0], *before[2:]]
    for page in (dropper, partner):
        page.wait_for_function(RACK_IS, arg=",".join(moved))

    # The connection drops mid-phase: the banner says so; when it returns the answer is still there.
    dropper.context.set_offline(True)
    dropper.evaluate("Classplay.page.connection.socket.close()")
    dropper.locator("#live-banner").wait_for(state="visible")
    dropper.context.set_offline(False)
    dropper.evaluate("Classplay.page.connection.reconnectSoon(0)")
    dropper.locator("#live-banner").wait_for(state="hidden")
    assert _rack(dropper) == moved

    # The teacher pauses: every device says so and the countdown stops; resume restores the time left.
    console.get_by_role("button", name="Pause").click()
    for page in devices:
        page.locator("#live-paused").wait_for(state="visible")
    table.refresh_from_db()
    assert table.deadline is None
    frozen = table.state["clock"]["remaining"]
    console.get_by_role("button", name="Resume").click()
    for page in devices:
        page.locator("#live-paused").wait_for(state="hidden")
    table.refresh_from_db()
    assert table.deadline is not None and frozen is not None

    # Each team's captain locks in; the answer is revealed on the projector.
    table.refresh_from_db()
    for team in teams:
        captain = table.state["q"]["captain"][team]
        pages[captain].locator("[data-action=confirm]").click()
    projector.wait_for_function(
        "() => !['answer'].includes(document.querySelector('[data-phase]')?.dataset.phase)", timeout=15_000
    )
    table.refresh_from_db()
    assert table.seq > 3

    # The teacher ends the session; the results page lists the table and the answers recorded.
    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(re.compile(r"/results/$"))
    console.get_by_role("heading", name="Table 1").wait_for()
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    for page in [console, projector, *devices]:
        assert page.errors == []
