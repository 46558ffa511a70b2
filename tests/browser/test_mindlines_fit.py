"""Mind the Lines on the devices a class really has, through the real pages (live site, websocket).

Each phase is reached with real actions (``games.services.action_submit``), then the student's page, the
projector and the console are measured with ``tests.browser.fit``: everything needed to play is on the
screen without scrolling, the drawing board stays large, nothing is cut, axe-core finds nothing serious.
"""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.engine import core
from games.engine.mindlines import MindTheLines
from games.services import ActionRefused
from tests.browser import server_side
from tests.browser.fit import PROJECTORS, STUDENT_DEVICES, assert_accessible, assert_fits, screenshot

# Each test plays the same game every time (fixed_seeds): with a fresh random seed the exclusions
# sometimes left more decoys than players, and the game was over at its first reveal, before the test
# could look at it.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fixed_seeds"),
]

GAME = MindTheLines()
_keys = itertools.count()

# What a student needs in each phase, as a CSS selector for assert_fits.
BOARD = ".ml-main-board, [data-fk=side], [data-fk=turn-left], [data-fk=turn-right]"
READING = f"{BOARD}, [data-fk=ready], .ml-secret-text"
DRAWING = (
    f"{BOARD}, [data-fk=tool-pen], [data-fk=tool-eraser], [data-fk=undo], [data-fk=clear],"
    " [data-fk=done], [data-fk=toggle-concept], .ml-secret-text"
)
CONFIRM_DONE = ".ml-main-board, [data-fk=done-yes], [data-fk=done-no]"
PROPHESYING = ".ml-card-button, .ml-prophecy .ml-turn"
CONFIRM_EXCLUDE = "[data-fk=exclude], [data-fk=exclude-cancel]"
REVEAL = "[data-fk=continue], .ml-round-result"
OVER = ".ml-result h3, .ml-scores"


# --------------------------------------------------------------------------------------------------
# Setting up a class and moving its tables through the game with real actions
# --------------------------------------------------------------------------------------------------


off_the_loop = server_side.call


@pytest.fixture(autouse=True)
def long_reveal(monkeypatch):
    """The reveal waits for everyone's Continue, as the other phases wait for the test's moves: its 30 s
    (not a teacher's setting) ran out on a loaded machine before the test looked, and the game was over."""
    from games.engine.mindlines import rules

    monkeypatch.setitem(rules.DEFAULT_CONFIG, "reveal_seconds", 600)


def start(classroom, teacher, count: int, **settings):
    from games.models import GameTable
    from tests.factories import enrolled_student, started_session

    students = [enrolled_student(classroom, display_name=f"Student {i + 1:02d}") for i in range(count)]
    # long timers: the phases move on by the test's actions, never by a clock running out half-way
    settings = {"draw_seconds": 600, "exclude_seconds": 600, **settings}
    session = off_the_loop(started_session, classroom, teacher, students, "mindlines", **settings)
    tables = list(GameTable.objects.filter(session=session).order_by("number"))
    return session, students, tables


def start_one_group(classroom, teacher, count: int):
    """A single group of ``count`` (up to eight, as the teacher may seat them), every student at table 1."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import GameTable
    from tests.factories import enrolled_student

    students = [enrolled_student(classroom, display_name=f"Student {i + 1:02d}") for i in range(count)]

    def seat_and_start():
        session = services.session_schedule(
            classroom=classroom,
            by=teacher,
            game="mindlines",
            scheduled_for=timezone.now() + timedelta(hours=1),
            settings={"draw_seconds": 600, "exclude_seconds": 600},
        )
        services.session_open_lobby(session=session, by=teacher)
        for student in students:
            participant = services.session_join(session=session, student=student)
            services.participant_admit(participant=participant, by=teacher)
            services.participant_plan(participant=participant, by=teacher, table=1)
        return services.session_start(session=session, by=teacher)

    session = off_the_loop(seat_and_start)
    return session, students, list(GameTable.objects.filter(session=session).order_by("number"))


def submit(table, player, action):
    from games import services

    return off_the_loop(
        services.action_submit, table_id=table.pk, player=player, action=action, key=f"fit-{next(_keys)}"
    )


def step(table, until, rng=None, limit=400, skip=()):
    """Plays the table with the engine's own sensible moves until ``until(state)`` holds (the players in
    ``skip`` are left to their devices)."""
    rng = rng or core.Rng("fit")
    for _ in range(limit):
        table.refresh_from_db()
        if until(table.state):
            return table.state
        players = [player for player in GAME.current_players(table.state) if player not in skip]
        assert players, f"nobody but {sorted(skip)} can move in {table.state['phase']}"
        player = players[0]
        try:
            submit(table, player, GAME.bot_action(table.state, player, rng))
        except ActionRefused:
            continue  # the reading timer (30 s, not a setting) moved the phase on meanwhile: look again
    raise AssertionError("the table never got there")


def phase_is(*phases):
    return lambda state: state["phase"] in phases


def everyone_ready(table):
    table.refresh_from_db()
    if table.state["phase"] != "looking":
        return  # the reading timer ran out first
    for player in table.state["players"]:
        if player in GAME.current_players(table.state):
            try:
                submit(table, player, {"type": "ready"})
            except ActionRefused:
                return


def open_device(signed_in, live_site, session, student, width=1366, height=650, **context):
    page = signed_in(live_site, student=student, width=width, height=height)
    page.goto(f"{live_site}/play/{session.pk}/")
    page.locator(".ml-root").wait_for()
    return page


def player_of(student):
    return f"s{student.pk}"


def wait_shown(page, selector, nth=0):
    """Waits for the screen to show ``selector``. The test database is SQLite's shared in-memory one: the
    live server's session hub can be refused a read while the test writes ("table is locked"), and it
    then drops that update (PostgreSQL in production never refuses a read); a reload gets the screen a
    fresh snapshot, as a device's reconnect would."""
    try:
        page.locator(selector).nth(nth).wait_for(state="attached")
    except PlaywrightTimeout:
        page.reload()
        page.locator(selector).nth(nth).wait_for(state="attached")


def wait_phase(page, phase, round_number=None):
    selector = f".ml-root[data-phase='{phase}']"
    if round_number is not None:
        selector += f"[data-round='{round_number}']"
    wait_shown(page, selector)


def board_side(page) -> float:
    return page.evaluate("() => document.querySelector('.ml-main-board').getBoundingClientRect().width")


def assert_phase_fits(page, controls, label, *, board=False):
    """Every control of the phase on each student device; with ``board``, the board is large too: at
    least 60 % of the screen's shorter side (what is left beside or under the page's own header)."""
    for name, (width, height) in STUDENT_DEVICES.items():
        page.set_viewport_size({"width": width, "height": height})
        if board:
            side = page.evaluate(
                """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
                    done(document.querySelector('.ml-main-board').getBoundingClientRect().width))))"""
            )
            assert side >= 0.6 * min(width, height), f"{label} {name}: the board is only {side:.0f}px"
        assert_fits(page, controls, label=f"{label} {name}", viewports={name: (width, height)})


BROKEN_WORDS = """() => {
  const broken = [];
  for (const text of document.querySelectorAll(".ml-card-text, .ml-secret-text")) {
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def assert_no_broken_words(page, label):
    """No word on a card or a concept split across two lines (letter by letter)."""
    for name, (width, height) in STUDENT_DEVICES.items():
        page.set_viewport_size({"width": width, "height": height})
        broken = page.evaluate(BROKEN_WORDS)
        assert not broken, f"{label} {name}: {broken} are broken across lines"


def my_turn(player):
    return lambda state: state["phase"] == "prophesying" and GAME.current_players(state) == [player]


@pytest.mark.parametrize("count", [4, 3, 8])
def test_every_phase_of_the_student_screen_fits_each_device(live_site, signed_in, class_7b, ms_rivera, count):
    """Reading, drawing (with the side and turn buttons), confirming Done, waiting, excluding, confirming,
    the reveal and the end: everything needed to play is on the screen of a Chromebook and of an iPad
    held either way, with the board as large as the screen allows. (Three players: two concepts each and
    twelve cards; eight, the largest group: sixteen cards and eight drawings.)"""
    session, students, (table,) = (start if count < 8 else start_one_group)(class_7b, ms_rivera, count)
    me = player_of(students[0])
    page = open_device(signed_in, live_site, session, students[0])
    wait_phase(page, "looking")
    assert_phase_fits(page, READING, "reading", board=True)

    everyone_ready(table)
    wait_phase(page, "scribbling")
    page.get_by_role("application", name="Your scribble board").wait_for()
    assert_phase_fits(page, DRAWING, "drawing", board=True)
    page.get_by_role("button", name="Done: show my drawing").click()
    assert_phase_fits(page, CONFIRM_DONE, "confirming Done", board=True)
    page.get_by_role("button", name="Yes, show it").click()
    page.locator(".ml-waiting").wait_for()
    assert_phase_fits(page, ".ml-waiting", "drawing shown")

    step(table, my_turn(me))
    page.locator(".ml-my-turn").wait_for()
    assert_phase_fits(page, PROPHESYING, "excluding")
    assert_no_broken_words(page, "excluding")
    page.locator(".ml-card-button").first.click()
    page.locator("[data-fk=exclude]").wait_for()
    assert_phase_fits(page, CONFIRM_EXCLUDE + ", .ml-card-button", "confirming an exclusion")
    page.locator("[data-fk=exclude]").click()
    page.locator(".ml-my-turn").wait_for(state="detached")

    step(table, phase_is("reveal"))
    wait_phase(page, "reveal")
    assert_phase_fits(page, REVEAL, "the reveal")

    step(table, phase_is("over"))
    wait_phase(page, "over")
    assert_phase_fits(page, OVER, "game over")
    # the viewer's own line of the scores starts a sentence: "You", not "you"
    page.locator(".ml-scores li").filter(has_text=re.compile(r"^You: \d+ concepts? recognised$")).wait_for()
    assert page.errors == []


# --------------------------------------------------------------------------------------------------
# A finger on an iPad
# --------------------------------------------------------------------------------------------------


def touch_device(browser, live_site, student, width=1024, height=690):
    """An iPad: a touch screen (``has_touch``) whose session cookie signs ``student`` in."""
    from importlib import import_module

    from django.conf import settings

    from classrooms.middleware import STUDENT_SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[STUDENT_SESSION_KEY] = student.pk
    store.save()
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    context.set_default_timeout(10_000)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": live_site}]
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return context, page


def walk(lines, length):
    """A path of dots along the dotted lines, for a finger to follow."""
    by_point: dict[tuple, list] = {}
    for x1, y1, x2, y2 in lines:
        by_point.setdefault((x1, y1), []).append((x2, y2))
        by_point.setdefault((x2, y2), []).append((x1, y1))
    best: list = []
    for first in sorted(by_point):
        path, seen = [first], {first}
        while len(path) <= length:
            options = [p for p in by_point[path[-1]] if p not in seen]
            if not options:
                break
            path.append(options[0])
            seen.add(options[0])
        if len(path) > len(best):
            best = path
    return best


INK_METER_SAYS = "(text) => document.querySelector('.ml-ink-meter').textContent.startsWith(text)"

SCREEN_POINTS = """(points) => {
  const svg = document.querySelector(".ml-main-board");
  const matrix = svg.querySelector(".ml-turn").getScreenCTM();
  return points.map(([x, y]) => {
    const point = svg.createSVGPoint();
    point.x = x; point.y = y;
    const screen = point.matrixTransform(matrix);
    return [screen.x, screen.y];
  });
}"""


def finger_stroke(page, points, steps=6):
    """A real touch drag (CDP touch events, as an iPad's screen sends them) through ``points``."""
    cdp = page.context.new_cdp_session(page)
    (x, y), rest = points[0], points[1:]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for nx, ny in rest:
        for i in range(1, steps + 1):
            px, py = x + (nx - x) * i / steps, y + (ny - y) * i / steps
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]})
        x, y = nx, ny
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_finger_draws_on_an_ipad_and_the_stroke_is_sent(browser, live_site, class_7b, ms_rivera):
    """Touch events from the screen itself (not synthetic pointer events): the finger's stroke snaps to
    the dotted lines and reaches the server, and the page neither scrolls nor zooms under the finger."""
    session, students, (table,) = start(class_7b, ms_rivera, 4)
    me = player_of(students[0])
    for size in [(1024, 690), (768, 950)]:
        context, page = touch_device(browser, live_site, students[0], *size)
        try:
            page.goto(f"{live_site}/play/{session.pk}/")
            if size == (1024, 690):
                everyone_ready(table)
            board = page.get_by_role("application", name="Your scribble board")
            board.wait_for()
            assert page.evaluate(
                "() => getComputedStyle(document.querySelector('.ml-main-board')).touchAction"
            ) == ("none")
            table.refresh_from_db()
            drawing = table.state["drawings"][me]
            before = len(drawing["strokes"])
            lines = GAME.view(table.state, {"role": "player", "player": me})["me"]["drawing"]["sides"][
                drawing["side"]
            ]
            path = walk(lines, 4)
            assert len(path) >= 3
            finger_stroke(page, page.evaluate(SCREEN_POINTS, path))
            page.wait_for_function(
                INK_METER_SAYS,
                arg=f"Strokes: {before + 1} ",
            )
            table.refresh_from_db()
            strokes = table.state["drawings"][me]["strokes"]
            assert len(strokes) == before + 1
            assert page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]
            assert page.errors == []
        finally:
            context.close()


def test_a_second_finger_resting_on_the_board_neither_draws_nor_ends_the_stroke(
    browser, live_site, class_7b, ms_rivera
):
    """A palm or a second finger on the tablet while one finger draws: the stroke is the drawing finger's
    path, whole, sent once when that finger lifts."""
    session, students, (table,) = start(class_7b, ms_rivera, 4)
    me = player_of(students[0])
    everyone_ready(table)
    context, page = touch_device(browser, live_site, students[0])
    try:
        page.goto(f"{live_site}/play/{session.pk}/")
        page.get_by_role("application", name="Your scribble board").wait_for()
        table.refresh_from_db()
        drawing = table.state["drawings"][me]
        lines = GAME.view(table.state, {"role": "player", "player": me})["me"]["drawing"]["sides"][
            drawing["side"]
        ]
        path = walk(lines, 4)
        points = page.evaluate(SCREEN_POINTS, path)
        far = page.evaluate(SCREEN_POINTS, [[11 - path[0][0], 11 - path[0][1]]])[0]
        cdp = page.context.new_cdp_session(page)

        def touches(kind, *spots):
            cdp.send(
                "Input.dispatchTouchEvent",
                {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in spots]},
            )
            # One frame per touch: a busy machine would otherwise merge moves, and a finger that jumps two
            # points is followed along whichever dotted line joins them (the test checks the exact path).
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")

        touches("touchStart", (1, points[0]))
        touches("touchStart", (1, points[0]), (2, far))  # the palm comes down
        for point in points[1:]:
            touches("touchMove", (1, point), (2, far))
        # the palm lifts first (a point left out of the active ones is released): the finger is still down
        # (back along the path and forward again, a point at a time: a jump across the board would be
        # followed along whichever dotted lines join its ends, which depend on the board dealt)
        for point in [*reversed(points[:-1]), *points[1:]]:
            touches("touchMove", (1, point))
        touches("touchEnd")
        page.wait_for_function(INK_METER_SAYS, arg="Strokes: 1 ")
        table.refresh_from_db()
        (stroke,) = table.state["drawings"][me]["strokes"]
        drawn = {tuple(sorted([tuple(a), tuple(b)])) for a, b in itertools.pairwise(path)}
        covered = set()
        for piece in stroke:
            assert len(piece) == 4, "only whole segments: the stroke went exactly along the finger's path"
            x1, y1, x2, y2 = piece
            steps = max(abs(x2 - x1), abs(y2 - y1))
            dx, dy = (x2 - x1) // steps, (y2 - y1) // steps
            for i in range(steps):
                a, b = (x1 + i * dx, y1 + i * dy), (x1 + (i + 1) * dx, y1 + (i + 1) * dy)
                covered.add(tuple(sorted([a, b])))
        assert covered == drawn
        assert page.errors == []
    finally:
        context.close()


# --------------------------------------------------------------------------------------------------
# The teacher ends the game
# --------------------------------------------------------------------------------------------------

ENDED = "The teacher ended this game."


def assert_nothing_to_play(page, label):
    """No board to draw on, no card to pick, no enabled button in the game; the end said instead."""
    root = page.locator(".ml-root")
    root.locator(".ml-ended-result").get_by_text(ENDED).wait_for()
    assert root.locator("[role=application], .ml-main-board, .ml-card-button").count() == 0, label
    enabled = root.locator("button:not([disabled])")
    assert enabled.count() == 0, f"{label}: {enabled.all_inner_texts()}"


def test_when_the_teacher_ends_the_game_every_screen_shows_it_and_nothing_can_be_played(
    live_site, signed_in, class_7b, ms_rivera
):
    session, students, (table,) = start(class_7b, ms_rivera, 4)
    everyone_ready(table)
    drawer = open_device(signed_in, live_site, session, students[0])
    drawer.get_by_role("application", name="Your scribble board").wait_for()
    # one player has shown a drawing, one is drawing, one is about to confirm Done
    submit(table, player_of(students[1]), {"type": "done"})
    confirming = open_device(signed_in, live_site, session, students[2], width=1024, height=690)
    confirming.get_by_role("button", name="Done: show my drawing").click()
    confirming.get_by_role("button", name="Yes, show it").wait_for()
    projector = signed_in(live_site, user=ms_rivera, width=1280, height=720)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".ml-root").wait_for()
    watching = signed_in(live_site, user=ms_rivera)  # a second console (the teacher's tablet)
    watching.goto(f"{live_site}/sessions/{session.pk}/")
    watching.get_by_role("button", name="Hide drawing by Student 01").wait_for()
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.on("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(f"**/sessions/{session.pk}/results/")

    for page, label in [(drawer, "the drawer"), (confirming, "the device confirming Done")]:
        assert_nothing_to_play(page, label)
        page.get_by_text("Student 01: 0 concepts recognised").or_(
            page.get_by_text("You: 0 concepts")
        ).first.wait_for()
    assert_nothing_to_play(projector, "the projector")
    assert_nothing_to_play(watching, "the console")
    for page, label in [
        (drawer, "ended device"),
        (projector, "ended projector"),
        (watching, "ended console"),
    ]:
        assert_accessible(page, label=label)
    table.refresh_from_db()
    assert table.status == "ended" and table.state["drawings"][player_of(students[0])]["strokes"] == []
    for page in (drawer, confirming, projector, watching, console):
        assert page.errors == []


def test_the_results_page_shows_the_scores_when_the_teacher_ended_the_game(
    live_site, signed_in, class_7b, ms_rivera
):
    from games import services

    session, students, (table,) = start(class_7b, ms_rivera, 4)
    step(table, lambda state: state["phase"] == "looking" and state["round"] == 1)
    table.refresh_from_db()
    expected = GAME.outcome_when_ended(table.state)["scores"]
    off_the_loop(services.session_end, session=session, by=ms_rivera)
    page = signed_in(live_site, user=ms_rivera)
    page.goto(f"{live_site}/sessions/{session.pk}/results/")
    rows = page.locator(".results-table tbody tr")
    scores = {row.locator("th").inner_text(): int(row.locator("td").inner_text()) for row in rows.all()}
    names = {player_of(student): student.display_name for student in students}
    assert scores == {names[player]: score for player, score in expected.items()}


# --------------------------------------------------------------------------------------------------
# The projector: one to eight groups
# --------------------------------------------------------------------------------------------------


CARD_WORDS = ".ml-role-projector .ml-card-text, .ml-role-projector .ml-card-text > span"
SMALLEST_WORD = f"""() => Math.min(...[...document.querySelectorAll("{CARD_WORDS}")].map(
  (el) => parseFloat(getComputedStyle(el).fontSize) * Number(el.closest(".ml-role-projector").dataset.zoom),
))"""


def projector_fits(page, label, count):
    assert_fits(page, ".ml-root", label=label, viewports=PROJECTORS)
    for name, (width, height) in PROJECTORS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "(count) => document.querySelectorAll('.ml-role-projector[data-zoom]').length === count",
            arg=count,
        )
        smallest = page.evaluate(SMALLEST_WORD)
        # legible from the back of the class: a card's word at least 0.5 % of the screen's width high (an
        # image projected 2.5 m wide: 1.25 cm letters), even with eight groups at the reveal (whose longest
        # words, drawn at random, set the scale: 0.55 % held for most deals but not all)
        assert smallest >= 0.005 * width, f"{label} {name}: the words on the cards are {smallest:.1f}px"


@pytest.mark.parametrize("groups", [1, 4, 6, 8])
def test_the_projector_shows_every_group_whole_at_both_sizes(
    live_site, signed_in, class_7b, ms_rivera, groups
):
    """One to eight groups of five (six is a class of 28-30): while they draw, exclude and look at the
    reveal, every group's screen is on the projector whole, at 1920x1080 and at 1280x720."""
    session, _students, tables = start(class_7b, ms_rivera, 5 * groups)
    assert len(tables) == groups
    page = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    page.goto(f"{live_site}/sessions/{session.pk}/projector/")
    page.locator(".ml-root").nth(groups - 1).wait_for()
    for table in tables:
        everyone_ready(table)
        step(
            table,
            lambda state: (
                state["phase"] == "scribbling" and any(d["strokes"] for d in state["drawings"].values())
            ),
        )
    wait_shown(page, ".ml-root[data-phase=scribbling]", groups - 1)
    projector_fits(page, f"projector, {groups} groups drawing", groups)
    for table in tables:
        step(table, phase_is("prophesying"))
    wait_shown(page, ".ml-root[data-phase=prophesying]", groups - 1)
    projector_fits(page, f"projector, {groups} groups excluding", groups)
    for table in tables:
        step(table, phase_is("reveal"))
    wait_shown(page, ".ml-root[data-phase=reveal]", groups - 1)
    projector_fits(page, f"projector, {groups} groups at the reveal", groups)
    assert page.errors == []


# --------------------------------------------------------------------------------------------------
# Accessibility (axe-core): the device, the projector and the console in every phase
# --------------------------------------------------------------------------------------------------


def test_every_screen_passes_axe_in_every_phase(live_site, signed_in, class_7b, ms_rivera):
    session, students, (table,) = start(class_7b, ms_rivera, 4)
    me = player_of(students[0])
    device = open_device(signed_in, live_site, session, students[0])
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    screens = {"device": device, "projector": projector, "console": console}

    def check(phase, round_number=None):
        for name, page in screens.items():
            wait_phase(page, phase, round_number)
            assert_accessible(page, label=f"{name} {phase}")

    check("looking")
    everyone_ready(table)
    device.get_by_role("application", name="Your scribble board").wait_for()
    step(table, lambda state: any(d["strokes"] for p, d in state["drawings"].items() if p != me), skip={me})
    check("scribbling")
    device.get_by_role("button", name="Done: show my drawing").click()
    device.get_by_role("button", name="Yes, show it").wait_for()
    assert_accessible(device, label="device confirming Done")
    device.get_by_role("button", name="Yes, show it").click()
    device.locator(".ml-waiting").wait_for()  # the server has it: the device says so
    step(table, my_turn(me), skip={me})
    check("prophesying")
    device.locator(".ml-card-button").first.click()
    device.locator("[data-fk=exclude]").wait_for()
    assert_accessible(device, label="device confirming an exclusion")
    device.locator("[data-fk=exclude]").click()
    device.locator(".ml-my-turn").wait_for(state="detached")
    # an excluded card: greyed and crossed out, its note ("excluded by ...") still readable
    device.locator(".ml-card.ml-out .ml-card-note").first.wait_for()
    phase = device.locator(".ml-root").get_attribute(
        "data-phase"
    )  # the reveal, if the exclusion was the last
    for name, page in screens.items():
        wait_phase(page, phase)
        assert_accessible(page, label=f"{name} with an excluded card")
    step(table, phase_is("reveal"))
    check("reveal")
    step(table, phase_is("over"))
    check("over")


def test_larger_text_keeps_the_board_large_on_a_portrait_ipad(live_site, signed_in, class_7b, ms_rivera):
    """On an iPad held upright a student with larger text draws on a board as large as a classmate's
    (within a tenth: the tools beside it are taller, the board need not be smaller), on every device with
    every control on the screen and the board large."""
    from classrooms.services import student_accommodations_set

    session, students, (table,) = start(class_7b, ms_rivera, 4)
    larger, plain = students[0], students[1]
    off_the_loop(student_accommodations_set, student=larger, by=ms_rivera, larger_text=True)
    pages = [
        open_device(signed_in, live_site, session, who, width=768, height=950) for who in (larger, plain)
    ]
    everyone_ready(table)
    for page in pages:
        wait_phase(page, "scribbling")
        page.get_by_role("application", name="Your scribble board").wait_for()
    assert pages[0].evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"
    pages[0].get_by_role("button", name="Use side B").click()  # a render more: the board keeps its size
    pages[0].get_by_role("button", name="Use side A").wait_for()
    assert_phase_fits(pages[0], DRAWING, "drawing with larger text", board=True)  # ends upright
    with_larger_text, without = (page.evaluate(BOARD_SIDE) for page in pages)
    screenshot(pages[0], "mindlines drawing with larger text, iPad portrait")
    assert with_larger_text >= 0.9 * without, (
        f"{with_larger_text:.0f}px with larger text, {without:.0f}px without"
    )
    assert pages[0].errors == []


BOARD_SIDE = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
    done(document.querySelector('.ml-main-board').getBoundingClientRect().width))))"""
