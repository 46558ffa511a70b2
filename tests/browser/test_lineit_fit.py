"""Line-it on the real pages of a class: every student screen fits a Chromebook and an iPad either way up
in every phase (drafting, after the take, a bet in the line, a jackpot won, the last plays, game over), the
projector fits with 1 to 8 tables, a card is dragged with real touch events on an iPad, the end of a game
the teacher ends shows everywhere, and axe-core finds nothing serious.

The session runs as in class (``live_site``); moves go through the services the websocket calls (the
computer player's choice for each student), or through the page where the control is what is tested.
"""

from __future__ import annotations

import itertools
import re
import types
from datetime import timedelta

import pytest

from tests.browser.fit import (
    CONSOLES,
    PROJECTORS,
    assert_accessible,
    assert_fits,
    assert_inside,
    assert_names_readable,
    screenshot,
)
from tests.browser.test_faces_fit import in_thread, retried, students_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a student needs on screen to play, step by step.
TAKE = (
    ".lineit-status__turn, .lineit-market .lineit-card, .lineit-actions button, .lineit-mine h3, "
    ".lineit-hand h3"
)
AFTER = (
    ".lineit-status__turn, .lineit-actions button, .lineit-mine h3, .lineit-hand .lineit-card, "
    ".lineit-hand h3"
)
WAITING = ".lineit-status__turn, .lineit-market .lineit-card, .lineit-mine h3, .lineit-hand h3"
OVER = ".lineit-outcome h3, .lineit-scores td"

# The deal of the table whose every screen is checked (see ``long_line_table``): at their take in round 16
# of 17, a player has a line of 14 cards with a Bet card in it (15 after the take), the longest of 60,000
# deals played with this test's moves.
LONG_LINE_SEED = "lineit-fit-19739"
LONG_LINE = 14


def start_session(classroom, teacher, students, **settings):
    def work():
        from django.utils import timezone

        from games import services

        session = services.session_schedule(
            classroom=classroom,
            by=teacher,
            game="lineit",
            scheduled_for=timezone.now() + timedelta(hours=1),
            settings={"level": "5", "turn_seconds": 120, **settings},
        )
        services.session_open_lobby(session=session, by=teacher)
        for student in students:
            services.session_join(session=session, student=student)
        services.session_start(session=session, by=teacher)
        session.refresh_from_db()
        return session

    return in_thread(work)


#: Each move's idempotency key, new for every move of the test run (a key already in the table's log would
#: make the server skip the move as a resend).
MOVE_KEYS = itertools.count()


def bot_moves(table, until, limit=400):
    """Everyone plays the computer player's move until ``until(state)`` holds; returns the state."""
    from games import services
    from games.definitions import get_engine
    from games.engine import core

    engine = get_engine("lineit")

    def work():
        rng = core.Rng("fit")
        for _step in range(limit):
            retried(table.refresh_from_db)
            if until(table.state) or table.status != "playing":
                return table.state
            player = engine.current_players(table.state)[0]
            action = engine.bot_action(table.state, player, rng)
            key = f"fit{next(MOVE_KEYS)}"
            submission = {"table_id": table.pk, "player": player, "action": action, "key": key}
            retried(lambda submission=submission: services.action_submit(**submission))
        raise AssertionError("the condition never came")

    return in_thread(work)


def open_table(live_site, signed_in, classroom, teacher):
    """A table of four students, each on a Chromebook at the game's page."""
    from games.models import GameTable

    students = students_of(classroom, 4)
    session = start_session(classroom, teacher, students)
    table = GameTable.objects.get(session=session)
    pages = {}
    for student in students:
        page = signed_in(live_site, student=student, width=1366, height=650)
        page.goto(f"{live_site}/play/{session.pk}/")
        page.locator(".lineit--player").wait_for()
        pages[f"s{student.pk}"] = page
    return session, table, pages


@pytest.fixture
def lineit_table(live_site, signed_in, class_7b, ms_rivera):
    return open_table(live_site, signed_in, class_7b, ms_rivera)


@pytest.fixture
def long_line_table(monkeypatch, live_site, signed_in, class_7b, ms_rivera):
    """The table of ``open_table`` dealt from ``LONG_LINE_SEED``. With a fresh random seed only some games
    bring a long line with a Bet card in it, the tallest screen a student gets, so a screen that does not
    fit would fail now and then; this deal (found by playing the test's moves on the engine) always does."""
    from games.services import lobby

    monkeypatch.setattr(lobby, "secrets", types.SimpleNamespace(token_hex=lambda nbytes: LONG_LINE_SEED))
    return open_table(live_site, signed_in, class_7b, ms_rivera)


def turn_of(state):
    return (state.get("turn") or {}).get("player")


def test_every_student_screen_fits_every_device_in_every_phase(long_line_table):
    _session, table, pages = long_line_table
    state = bot_moves(table, lambda s: s["round"] >= 3)  # lines with cards in them
    me = turn_of(state)
    page = pages[me]
    page.locator(".lineit-status.is-mine").wait_for()
    assert_fits(page, TAKE, label="Line-it taking a card")
    waiting = next(p for pid, p in pages.items() if pid != me)
    assert_fits(waiting, WAITING, label="Line-it waiting for another player")

    # Tap a market card: the moves under it name the card.
    page.locator(".lineit-market button.lineit-card").first.click()
    page.locator(".lineit-actions__what").wait_for()
    assert_fits(page, TAKE + ", .lineit-actions__what", label="Line-it a card picked")
    page.get_by_role("button", name="In my hand").click()
    page.locator("[data-step='after']").wait_for()
    assert_fits(page, AFTER, label="Line-it after taking")

    # Later: a player to move with a Bet card in a long line (the tallest screen: the line on two rows, the
    # bet, what scoring would give), before and after their take (then three moves: play, score, end).
    state = bot_moves(table, lambda s: _bet_in_line_to_take(s) and len(_line(s)) >= LONG_LINE, limit=600)
    assert _bet_in_line_to_take(state) and len(_line(state)) == LONG_LINE
    page = pages[turn_of(state)]
    page.locator(f"[data-step='take'] .lineit-cards--line > :nth-child({LONG_LINE})").wait_for()
    assert_fits(page, TAKE + ", .lineit-bet-note, .lineit-preview", label="Line-it a bet in the line")
    state = bot_moves(table, lambda s: s["turn"]["step"] == "after", limit=2)
    assert len(_line(state)) == LONG_LINE + 1 and state["hands"][turn_of(state)]
    page.locator(f"[data-step='after'] .lineit-cards--line > :nth-child({LONG_LINE + 1})").wait_for()
    assert page.locator(".lineit-actions button").count() == 3
    assert_fits(
        page, AFTER + ", .lineit-bet-note, .lineit-preview", label="Line-it a bet in the line after taking"
    )
    screenshot(page, "Line-it a bet in a long line")

    # The last plays, then the game over screen with the ranking.
    state = bot_moves(table, lambda s: s["phase"] in ("final", "over"), limit=600)
    assert state["phase"] == "final"
    page = pages[turn_of(state)]
    page.locator("[data-step='final']").wait_for()
    assert_fits(
        page, ".lineit-status__turn, .lineit-actions button, .lineit-mine h3", label="Line-it last plays"
    )
    bot_moves(table, lambda s: s["phase"] == "over", limit=60)
    for page in pages.values():
        page.locator(".lineit-outcome").wait_for()
    assert_fits(page, OVER, label="Line-it game over")
    screenshot(page, "Line-it game over")
    for page in pages.values():
        assert page.errors == []


def _bet_in_line_to_move(state):
    player = turn_of(state)
    if not player or state["phase"] != "draft":
        return False
    from games.engine.lineit import rules

    return rules.line_bet(state, player) is not None


def _bet_in_line_to_take(state):
    return _bet_in_line_to_move(state) and state["turn"]["step"] == "take"


def _line(state):
    """The cards in the line of the player to move."""
    return state["lines"][turn_of(state)]["cards"]


@pytest.mark.parametrize("tables", [1, 4, 8])
def test_the_projector_fits_with_one_to_eight_tables(live_site, signed_in, class_7b, ms_rivera, tables):
    session = start_session(class_7b, ms_rivera, students_of(class_7b, 4 * tables))
    assert session.tables.count() == tables
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".table-card .lineit--projector").nth(tables - 1).wait_for()
    assert_fits(
        projector,
        ".table-card, .lineit-proj__name, .lineit-proj__score, .lineit-proj__jackpot",
        label=f"Line-it projector, {tables} tables",
        viewports=PROJECTORS,
    )
    assert_names_readable(projector, ".lineit-proj__name", ".lineit-proj__name, .lineit-proj__turn")
    screenshot(projector, f"Line-it projector {tables} tables")
    assert projector.errors == []


def touch_drag(page, source, target, steps=8):
    """A finger drag from the middle of ``source`` to the middle of ``target``, as an iPad sends it."""
    cdp = page.context.new_cdp_session(page)
    for locator in (source, target):
        # A CI run found the card there but not visible for an instant (bounding_box gave None).
        locator.wait_for(state="visible")
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None, (start, end)
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("size", [(1024, 690), (768, 950)])
def test_a_card_is_dragged_with_a_finger_on_an_ipad(live_site, browser, class_7b, ms_rivera, size):
    from importlib import import_module

    from django.conf import settings

    from classrooms.middleware import STUDENT_SESSION_KEY
    from games.models import GameTable

    students = students_of(class_7b, 2)
    session = start_session(class_7b, ms_rivera, students)
    table = GameTable.objects.get(session=session)
    first = table.state["turn"]["player"]
    student = next(s for s in students if f"s{s.pk}" == first)
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[STUDENT_SESSION_KEY] = student.pk
    store.save()
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, locale="en-GB")
    try:
        context.set_default_timeout(10_000)
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": live_site}]
        )
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_site}/play/{session.pk}/")
        page.locator(".lineit-status.is-mine").wait_for()
        scrolled = page.evaluate("scrollY")
        # A tap picks a card (and a second tap drops the pick).
        page.locator(".lineit-market button.lineit-card").nth(1).tap()
        page.locator(".lineit-market .is-selected").wait_for()
        page.locator(".lineit-market button.lineit-card").nth(1).tap()
        page.locator(".lineit-market .is-selected").wait_for(state="detached")
        # A card into the line with a finger: the page does not scroll, the card lands in the line.
        card = table.state["market"][0]
        touch_drag(
            page, page.locator(f".lineit-market button[data-card='{card}']"), page.locator(".lineit-mine")
        )
        page.locator("[data-step='after']").wait_for()
        table.refresh_from_db()
        assert table.state["lines"][first]["cards"] == [card]
        assert page.evaluate("scrollY") == scrolled
        # After the take, a tap (touch) on "End my turn" ends it.
        # After the drag, a tap on "End my turn" still ends it (a drag the page did not claim used to leave
        # the next taps without their click).
        page.get_by_role("button", name="End my turn").tap()
        page.locator(".lineit-status:not(.is-mine)").wait_for()
        # The next turn: a card into the hand with a finger.
        bot_moves(table, lambda s: s["turn"]["player"] == first)
        page.locator(".lineit-status.is-mine").wait_for()
        table.refresh_from_db()
        card = table.state["market"][-1]
        touch_drag(
            page, page.locator(f".lineit-market button[data-card='{card}']"), page.locator(".lineit-hand")
        )
        page.locator("[data-step='after']").wait_for()
        table.refresh_from_db()
        assert table.state["hands"][first] == [card]
        assert errors == []
    finally:
        context.close()


def test_ending_the_game_early_shows_everywhere_and_stops_play(lineit_table, live_site, signed_in, ms_rivera):
    session, table, pages = lineit_table
    state = bot_moves(table, lambda s: s["round"] >= 2)
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".lineit--compact").wait_for()
    watcher = signed_in(live_site, user=ms_rivera)
    watcher.goto(f"{live_site}/sessions/{session.pk}/")
    watcher.locator(".lineit--compact").wait_for()
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".lineit--projector").wait_for()
    pages[turn_of(state)].locator(".lineit-status.is-mine").wait_for()

    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(re.compile(r"/results/$"))
    for page in pages.values():
        page.get_by_text("The teacher ended this game.").wait_for()
        page.get_by_role("heading", name="Scores when the game was ended").wait_for()
        assert page.locator(".lineit button:enabled, .lineit-clock:not(:empty)").count() == 0
        assert page.locator("[data-session-status]").inner_text() == "Finished"
        assert_fits(page, ".lineit-outcome h3, .lineit-scores td", label="Line-it ended by the teacher")
    for page in (watcher, projector):
        page.locator(".lineit", has_text="The teacher ended this game.").wait_for()
        assert page.locator(".table-card .countdown:visible").count() == 0
    # The results: everyone's score at that moment, no winner.
    from games.engine.lineit import rules

    table.refresh_from_db()
    text = console.locator("main").inner_text()
    assert "Ended early by the teacher." in text and "Won by" not in text
    names = {p["id"]: p["name"] for p in table.config["players"]}
    for player in table.state["order"]:
        assert f"{names[player]}\t{rules.score_of(table.state, player)}" in text
    for page in (*pages.values(), watcher, projector):
        assert page.errors == []


def test_no_serious_accessibility_problem_on_the_device_the_projector_and_the_console(
    lineit_table, live_site, signed_in, ms_rivera
):
    session, table, pages = lineit_table
    state = bot_moves(table, lambda s: s["round"] >= 2)
    me = turn_of(state)
    page = pages[me]
    page.locator(".lineit-status.is-mine").wait_for()
    for width, height in ((1366, 650), (768, 950)):
        page.set_viewport_size({"width": width, "height": height})
        assert_accessible(page, label=f"Line-it device taking {width}x{height}")
    page.locator(".lineit-market button.lineit-card").first.click()
    page.locator(".lineit-actions__what").wait_for()
    assert_accessible(page, label="Line-it device a card picked")
    other = next(p for pid, p in pages.items() if pid != me)
    assert_accessible(other, label="Line-it device waiting")
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".lineit--projector").wait_for()
    assert_accessible(projector, label="Line-it projector")
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".lineit--compact").wait_for()
    assert_accessible(console, label="Line-it console")
    # Nothing sideways on the console, and each table's controls in reach.
    assert_fits(console, ".table-controls button", label="Line-it console", viewports=CONSOLES)


def test_the_consoles_table_shows_every_column_of_the_scores_on_every_teachers_screen(
    lineit_table, live_site, signed_in, ms_rivera
):
    """The console gave each table a third of the page: Bets and Score were cut off, even at 1920."""
    session, table, _pages = lineit_table
    bot_moves(table, lambda s: s["round"] >= 2)
    console = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.locator(".lineit--compact").wait_for()
    screenshot(console, "Line-it console table 1920")
    cells = ".lineit-compact__table th, .lineit-compact__table td"
    assert_inside(console, cells, ".table-card", label="Line-it console table", viewports=CONSOLES)
