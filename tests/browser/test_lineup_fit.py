"""Line Up! on the real pages of a live session, as a class sees it: every phase on the students' devices
(Chromebook, iPad landscape and portrait), on the projector and on the console, with the longest cards of
the question bank. The game is driven through the runtime (``games.services``) and every screen is
checked: the controls needed to play are visible without scrolling, no word is broken, axe-core finds
no serious violation, and the wording reads as English.
"""

from __future__ import annotations

import json
import os
import re
import types
import uuid

import pytest

from games import setup
from games.engine import core
from tests.browser import server_side
from tests.browser.fit import (
    CONSOLES,
    PROJECTORS,
    STUDENT_DEVICES,
    assert_accessible,
    assert_fits,
    screenshot,
)
from tests.browser.test_lineup_screen import Bench
from tests.loading import engine_module

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

h = engine_module("test_lineup_helpers")
#: LINEUP_SCREENSHOTS=1 saves every screen checked under test-results/fit/, to look at them.
SHOW = os.environ.get("LINEUP_SCREENSHOTS") == "1"

#: What a student needs to play in any phase (only the visible ones are checked).
DEVICE_CONTROLS = ", ".join(
    (
        "[data-rack] [data-card]",
        "[data-action=confirm]",
        "[data-action=stop]",
        "[data-picker] button",
        "[data-star-places] li",
        "[data-star-hand] button",
        ".lu-captain-note",
        ".lu-cardlist li",
        "[data-rack-readonly] .lu-card",
        ".lu-answer li",
        ".lu-reveal-next",
        ".lu-result-line",
        ".lu-winner",
        ".lu-ended",
    )
)
#: Once the game is over: who won, or that the teacher ended it (the last answer may be further down).
OVER = ".lu-winner, .lu-ended, .lu-phase"
#: What the class must read on the projector (the board, the teams, the question or the answer).
PROJECTOR_CONTENT = ", ".join(
    (
        ".lu-board",
        ".lu-team-box",
        ".lu-heading",
        ".lu-cardlist li",
        "[data-rack-readonly] .lu-card",
        "[data-star-places] li",
        ".lu-answer li",
        ".lu-result-line",
        ".lu-moves",
        ".lu-reveal-next",
        ".lu-winner",
        ".lu-ended",
    )
)

# Words split over two lines ("Th e Fir st"), or text cut by its box; hyphens and slashes may break.
_BROKEN = """
(root) => {
  const broken = [];
  for (const box of document.querySelectorAll(root)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const parent = node.parentElement;
      const away = "[hidden], .visually-hidden, details:not([open]) > :not(summary)";
      if (!parent || parent.closest(away)) continue;
      if (getComputedStyle(parent).display === "none") continue;
      const words = /[^\\s\\-\\u2013\\/]+/g;
      let match;
      while ((match = words.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return [...new Set(broken)];
}
"""

# Slips a reader notices: "a orange", "the the", "..", "space the 5-space", a sentence in lowercase.
SLIPS = [
    (re.compile(r"\b[aA] (?:[aeiAEI]\w|orange|Orange)"), "a before a vowel"),
    (re.compile(r"\b(\w+) \1\b", re.IGNORECASE), "a doubled word"),
    (re.compile(r"\.\.(?!\.)|!\.|\?\.|\.!"), "doubled punctuation"),
    (re.compile(r"space the\b"), "space the ..."),
    (re.compile(r"(?:^|[.!?] )[a-z]\w* \w+ \w+.*[.!?]$", re.MULTILINE), "a sentence starting in lowercase"),
]


OPEN_LOG = "(open) => document.querySelectorAll('[data-tables] details').forEach((d) => (d.open = open))"


def assert_reads_well(text: str, label: str):
    for line in text.splitlines():
        for pattern, what in SLIPS:
            found = pattern.search(line)
            assert not found, f"{label}: {what} in {line!r}"


def longest_questions():
    """The shipped questions with the longest card texts (a 73-character event, five 60-character ones)."""
    from games import shipped

    bank = shipped.lineup_questions()
    by_card = sorted(bank, key=lambda q: -max(len(item["text"]) for item in q["items"]))[:4]
    by_total = sorted(bank, key=lambda q: -sum(len(item["text"]) for item in q["items"]))[:2]
    by_explanation = sorted(bank, key=lambda q: -len(q["explanation"]))[:1]
    chosen = {q["id"]: q for q in by_card + by_total + by_explanation}
    return list(chosen.values())


#: Of the longest questions, the one whose star-turn hand stands tallest on a portrait iPad (each was tried
#: there with LINEUP_STAR_QUESTION=<id>); its five cards wrap to four and five lines.
TALLEST_STAR_HAND = "tec-before-computers"


@pytest.fixture
def long_cards(monkeypatch):
    from games.definitions import lineup

    questions = longest_questions()
    assert max(len(item["text"]) for q in questions for item in q["items"]) >= 70
    monkeypatch.setattr(lineup, "class_questions", lambda session: [dict(q) for q in questions])
    # The order is a table's fresh random one: a seed that brings the question with the most text to the
    # star turn (the third question, after rounds 1 and 2), so the screen with most to show always gets it.
    most_text = os.environ.get("LINEUP_STAR_QUESTION", TALLEST_STAR_HAND)
    assert most_text in {q["id"] for q in questions}
    seed = next(
        seed
        for seed in (f"fit-{n}" for n in range(10_000))
        if core.Rng(seed).shuffled(questions)[2]["id"] == most_text
    )
    monkeypatch.setattr(setup, "secrets", types.SimpleNamespace(token_hex=lambda nbytes: seed))
    return types.SimpleNamespace(ids={q["id"] for q in questions}, star=most_text)


off_thread = server_side.call


class Live:
    """A live Line Up! session of four students on the real pages, moved on through the runtime."""

    def __init__(self, live_site, signed_in, classroom, teacher, **settings):
        from games.models import GameTable
        from tests.factories import enrolled_student, started_session

        self.url = live_site
        self.teacher = teacher
        names = ("Ava Montgomery-Smith", "Benedict K.", "Caitlin Lee", "Dee R.")
        self.students = [enrolled_student(classroom, display_name=name) for name in names]
        settings = {"board": "short", "answer_seconds": 300, "reveal_seconds": 120, **settings}
        self.session = off_thread(started_session, classroom, teacher, self.students, "lineup", **settings)
        self.table = GameTable.objects.get(session=self.session)
        state = self.table.state
        self.team_of = {p: info["team"] for p, info in state["players"].items()}
        self.failures = []
        # Every device signs in before any page loads (a sign-in writes the table the server reads).
        self.devices = {
            f"s{student.pk}": signed_in(live_site, student=student, width=1366, height=650)
            for student in self.students
        }
        self.projector = signed_in(live_site, user=teacher, width=1920, height=1080)
        self.console = signed_in(live_site, user=teacher, width=1366, height=650)
        for page in self.devices.values():
            page.goto(f"{live_site}/play/{self.session.pk}/")
        self.projector.goto(f"{live_site}/sessions/{self.session.pk}/projector/")
        self.console.goto(f"{live_site}/sessions/{self.session.pk}/")
        self.wait()

    # --- the runtime ---------------------------------------------------------------------------------

    @property
    def state(self):
        off_thread(self.table.refresh_from_db)
        return self.table.state

    def act(self, player, action):
        from games import services

        off_thread(
            services.action_submit,
            table_id=self.table.pk,
            player=player,
            action=action,
            key=uuid.uuid4().hex,
            teacher=player == core.TEACHER,
        )

    def captain(self, team):
        return self.state["q"]["captain"][team]

    def answer(self):
        state = self.state
        return json.loads(state["questions"][state["q"]["index"]])["answer"]

    def question_id(self):
        state = self.state
        return json.loads(state["questions"][state["q"]["index"]])["id"]

    def lock(self, team, right):
        captain = self.captain(team)
        self.act(captain, {"type": "rack", "order": h.order_with(self.answer(), right)})
        self.act(captain, {"type": "confirm"})

    def choose(self, team, value):
        captain, phase = self.captain(team), self.state["phase"]
        self.act(captain, {"type": phase, "value": value})
        self.act(captain, {"type": "confirm"})

    def next_question(self):
        assert self.state["phase"] == "reveal"
        self.act(core.TEACHER, {"type": "continue"})

    def wait(self, pages=None):
        """Every screen shows the table as it is now."""
        seq = self.state and self.table.seq
        for page in pages or self.pages():
            page.locator(f".lu[data-seq='{seq}']").wait_for()

    def pages(self):
        return [*self.devices.values(), self.projector, self.console]

    def device(self, team, captain=True):
        """A device of the team: its captain's (or another member's); any member's when it plays alone."""
        lead = self.state["q"]["captain"].get(team)
        for player, page in self.devices.items():
            if self.team_of[player] == team and (lead is None or (player == lead) == captain):
                return page
        raise AssertionError(f"no {'captain' if captain else 'member'} of {team}")

    # --- the checks ------------------------------------------------------------------------------------

    def check_device(self, page, label, controls=DEVICE_CONTROLS):
        assert_fits(page, controls, label=label, viewports=STUDENT_DEVICES)
        for name, (width, height) in STUDENT_DEVICES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            broken = page.evaluate(_BROKEN, "[data-tables] .lu")
            if broken or SHOW:
                screenshot(page, f"{label} {name}" + (" broken" if broken else ""))
            assert not broken, f"{label} on {name}: words broken across lines: {broken}"
        page.set_viewport_size({"width": 1366, "height": 650})
        assert_accessible(page, label=label)
        # Every sentence on the screen, the game's log ("What happened") too.
        page.evaluate(OPEN_LOG, True)
        assert_reads_well(page.locator("[data-tables]").inner_text(), label)
        page.evaluate(OPEN_LOG, False)
        assert page.errors == []

    def check_projector(self, label):
        page = self.projector
        assert_fits(page, PROJECTOR_CONTENT, label=f"projector {label}", viewports=PROJECTORS)
        for name, (width, height) in PROJECTORS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            broken = page.evaluate(_BROKEN, "[data-tables] .lu")
            if SHOW:
                screenshot(page, f"projector {label} {name}")
            assert not broken, f"projector {label} on {name}: words broken across lines: {broken}"
            # Legible from the back of a class: every card's text (as drawn, after any zoom) at least 1/46 of
            # the screen's height (24 px on 1080 lines, 15.7 px on 720: the same on the wall).
            small = page.evaluate(
                "() => [...document.querySelectorAll('[data-tables] .lu-card-text')].map((e) =>"
                " parseFloat(getComputedStyle(e).fontSize) * e.getBoundingClientRect().width / e.offsetWidth)"
                ".filter((size) => size < window.innerHeight / 46)"
            )
            if small:
                screenshot(page, f"projector {label} {name} small")
            assert not small, f"projector {label} on {name}: card text of {small} px"
        page.set_viewport_size({"width": 1920, "height": 1080})
        assert_accessible(page, label=f"projector {label}")
        assert_reads_well(page.locator("[data-tables]").inner_text(), f"projector {label}")
        assert page.errors == []

    def check_console(self, label):
        assert_accessible(self.console, label=f"console {label}")
        assert_reads_well(self.console.locator("[data-tables]").inner_text(), f"console {label}")
        assert self.console.errors == []

    def more_time(self):
        """The teacher's "+ time" on a timed step, so a slow machine's checks never outlast it (predictions,
        bids and star steps have 20-30 s)."""
        from games import services

        if self.state["clock"].get("deadline") is not None:
            off_thread(services.table_extend, table=self.table, by=self.teacher, seconds=600)
            self.wait()

    def check_all(self, label, *pages, controls=DEVICE_CONTROLS):
        """Every check of every screen, each failure collected (one run shows them all)."""
        self.more_time()
        checks = [
            (self.check_device, (page, f"{label} device {n}", controls)) for n, page in enumerate(pages, 1)
        ]
        checks += [(self.check_projector, (label,)), (self.check_console, (label,))]
        for check, args in checks:
            try:
                check(*args)
            except AssertionError as failure:
                self.failures.append(str(failure))


def test_every_phase_fits_every_device_the_projector_and_reads_well(
    live_site, signed_in, class_7b, ms_rivera, long_cards
):
    live = Live(live_site, signed_in, class_7b, ms_rivera)
    assert live.question_id() in long_cards.ids
    blue, yellow = live.device("blue"), live.device("yellow", captain=False)

    # Round 1, purple: both teams answer.
    live.check_all("purple answer", blue, yellow)
    live.lock("blue", 5)
    live.wait()
    live.check_all("purple locked in", blue)
    live.lock("yellow", 2)
    live.wait()
    live.check_all("purple reveal", blue, yellow)

    # The teacher holds the answer from the console; every screen says so until they continue.
    assert_fits(
        live.console, "[data-action=hold], [data-action=continue]", label="console hold", viewports=CONSOLES
    )
    live.console.get_by_role("button", name="Hold the answer").click()
    for page in live.pages():
        page.locator(".lu-reveal-held").wait_for()
    live.check_all("purple reveal held", blue, yellow)
    assert live.state["phase"] == "reveal" and live.table.deadline is None
    live.console.get_by_role("button", name="Next question").click()
    for page in live.pages():
        page.locator("[data-phase=answer]").wait_for()
    assert live.state["round"] == 2

    # Round 2: blue lands on the star on 8.
    live.lock("blue", 3)
    live.lock("yellow", 0)
    live.next_question()
    live.wait()
    assert live.state["phase"] == "star"
    assert live.question_id() == long_cards.star, "the star turn has the question with the most text"
    live.check_all("star", live.device("blue"), live.device("yellow"))
    answer = live.answer()
    captain = live.captain("blue")
    live.act(captain, {"type": "lay", "card": answer[0], "position": 1})
    live.act(captain, {"type": "confirm"})
    live.wait()
    live.check_all("star one laid", live.device("blue"), live.device("yellow"))
    live.act(captain, {"type": "stop"})
    live.act(captain, {"type": "confirm"})
    live.wait()
    live.check_all("star reveal", live.device("blue"), live.device("yellow"))
    live.next_question()

    # Round 3, orange: predictions, then both answer.
    live.wait()
    assert live.state["phase"] == "predict"
    live.check_all("orange predict", live.device("blue"), live.device("yellow", captain=False))
    live.choose("blue", 2)
    live.choose("yellow", 1)
    live.wait()
    live.check_all("orange answer", live.device("blue"), live.device("yellow"))
    live.lock("blue", 5)
    live.lock("yellow", 0)
    live.wait()
    live.check_all("orange reveal", live.device("blue"), live.device("yellow"))
    live.next_question()

    # Round 4, pink: bids, then blue answers face up.
    live.wait()
    assert live.state["phase"] == "bid"
    live.check_all("pink bid", live.device("blue"), live.device("yellow"))
    live.choose("blue", 5)
    live.choose("yellow", 1)
    live.wait()
    live.check_all("pink face up", live.device("blue"), live.device("yellow"))
    live.lock("blue", 5)
    live.wait()
    live.check_all("pink reveal", live.device("blue"), live.device("yellow"))
    live.next_question()

    # The 5-space: blue misses twice (yellow moves 5), then gets all five and wins.
    live.wait()
    assert live.state["phase"] == "final"
    live.check_all("final", live.device("blue"), live.device("yellow"))
    live.lock("blue", 2)
    live.wait()
    live.check_all("final second try", live.device("blue"), live.device("yellow"))
    live.lock("blue", 0)
    live.wait()
    live.check_all("final missed", live.device("blue"), live.device("yellow"))
    # Blue misses twice more: yellow moves 5 each time (7, 12, then the 5-space): both there, a tie-break.
    for _miss in range(2):
        live.next_question()
        live.lock("blue", 0)
        live.lock("blue", 0)
    assert live.state["teams"]["yellow"]["pos"] == live.state["board"]["final"]
    live.next_question()
    live.wait()
    assert live.state["phase"] == "bid" and live.state["q"]["mini"] == "tiebreak"
    live.check_all("tie-break bid", live.device("blue"), live.device("yellow", captain=False))
    live.choose("blue", 5)
    live.choose("yellow", 1)
    live.wait()
    live.check_all("tie-break face up", live.device("blue"), live.device("yellow"))
    live.lock("blue", 5)
    live.wait()
    assert live.state["phase"] == "over" and live.state["winner"] == "blue"
    live.check_all("game over", live.device("blue"), live.device("yellow"), controls=OVER)
    # The game finished by itself: every screen says who won, and nothing is left to press.
    for page in live.pages():
        page.locator(".lu-winner, .lu-game-over").first.wait_for()
        assert_nothing_to_press(page, "game over")
    assert not live.failures, "\n\n".join(live.failures)


# ==================================================================================================
# Touch, accessibility details: the module on its own (the harness of test_lineup_screen.py)
# ==================================================================================================


@pytest.fixture
def touch_page(browser):
    """An iPad: a touch screen, landscape."""
    context = browser.new_context(viewport={"width": 1024, "height": 690}, has_touch=True, locale="en-GB")
    context.set_default_timeout(10_000)
    yield lambda width=1024, height=690: context.new_page()
    context.close()


def touch_drag(page, start, end, steps=8):
    cdp = page.context.new_cdp_session(page)
    touch = {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]}
    cdp.send("Input.dispatchTouchEvent", touch)
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_finger_drags_a_card_to_another_place_on_an_ipad(touch_page):
    bench = Bench(touch_page, h.new_game())
    ava = bench.device("ava", "player", "ava", width=1024, height=690)
    assert ava.evaluate("navigator.maxTouchPoints > 0")
    card = ava.locator("[data-rack] [data-card='5']")
    assert card.evaluate("e => getComputedStyle(e).touchAction") == "none"
    touch_drag(ava, centre(card.bounding_box()), centre(ava.locator("[data-slot='1']").bounding_box()))
    bench.pump()
    assert bench.rack("blue") == [5, 1, 2, 3, 4]
    # Portrait: the rack is a column, and a finger drags a card down it.
    ava.set_viewport_size({"width": 768, "height": 950})
    card = ava.locator("[data-rack] [data-card='1']")
    touch_drag(ava, centre(card.bounding_box()), centre(ava.locator("[data-slot='5']").bounding_box()))
    bench.pump()
    assert bench.rack("blue") == [5, 2, 3, 4, 1]
    assert ava.evaluate("window.errors") == []


# ==================================================================================================
# The end: every screen says so, and nothing can still be pressed
# ==================================================================================================

ACTIVE_CONTROLS = """
(root) => [...document.querySelectorAll(root + " button, " + root + " [role=button], " + root + " input")]
  .filter((el) => !el.disabled && el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => el.textContent.trim() || el.outerHTML.slice(0, 80))
"""


def assert_nothing_to_press(page, label):
    active = page.evaluate(ACTIVE_CONTROLS, "[data-tables]")
    assert active == [], f"{label}: still active: {active}"


def test_when_the_teacher_ends_the_game_every_screen_says_so_and_play_stops(
    live_site, signed_in, class_7b, ms_rivera, long_cards
):
    from games.models import GameSession, GameTable

    live = Live(live_site, signed_in, class_7b, ms_rivera)
    blue, yellow = live.device("blue"), live.device("yellow", captain=False)
    blue.locator("[data-rack] [data-card='1']").wait_for()
    assert blue.locator("[data-action=confirm]").is_enabled()
    # The console's "End the game" (confirmed), as a teacher does it.
    live.console.on("dialog", lambda dialog: dialog.accept())
    live.console.get_by_role("button", name="End the game").click()
    live.console.wait_for_url(re.compile(r"/results/"))
    for page in (blue, yellow, live.projector):
        page.locator(".lu-ended").wait_for()
        assert "The game has ended" in page.locator(".lu-ended").inner_text()
        assert page.locator("[data-rack], [data-action], [data-picker]").count() == 0
        assert_nothing_to_press(page, "after the end")
        assert page.locator(".lu-clock, .countdown").evaluate_all("els => els.map((e) => e.textContent)") in (
            [],
            [""],
        )
        assert page.errors == []
    assert "Thank you for playing" in blue.locator(".lu-ended").inner_text()
    assert "Finished" in blue.locator("[data-session-status]").inner_text()
    live.check_device(blue, "ended", controls=OVER)
    live.check_projector("ended")
    table = GameTable.objects.get(pk=live.table.pk)
    assert table.status == GameTable.Status.ENDED
    assert GameSession.objects.get(pk=live.session.pk).status == GameSession.Status.FINISHED

    # A console opened now shows the table as ended, with none of its per-table controls.
    console = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    console.goto(f"{live_site}/sessions/{live.session.pk}/")
    console.locator(".lu-game-over").wait_for()
    assert "The teacher ended the game." in console.locator(".lu-game-over").inner_text()
    assert_nothing_to_press(console, "console after the end")
    assert_accessible(console, label="console after the end")


def _luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("size", [(1024, 690), (768, 950)], ids=["iPad landscape", "iPad portrait"])
def test_the_track_is_described_in_words_its_colours_read_and_cards_are_named_as_they_look(new_page, size):
    bench = Bench(new_page, h.place(h.new_game(), blue=10, yellow=18))
    ava = bench.device("ava", "player", "ava", width=size[0], height=size[1])
    # The track: a list for the eyes only, and one sentence for a screen reader (no list made an image).
    track = ava.locator("[data-board] ol")
    assert track.get_attribute("role") is None and track.get_attribute("aria-hidden") == "true"
    summary = ava.locator(".lu-track-summary").inner_text()
    assert "Blue on space 10, an orange space; Yellow on space 18, a pink space." in summary
    # White on every zone's colour: at least 4.5:1.
    for zone in ("start", "purple", "orange", "pink", "final"):
        colours = ava.locator(f".lu-zone-{zone} .lu-space-n").first.evaluate(
            "e => [getComputedStyle(e).color, getComputedStyle(e.closest('.lu-space')).backgroundColor]"
        )
        assert contrast(*colours) >= 4.5, (zone, colours)
    # A card's accessible name is the text it shows ("3 The Titanic sinks"), as speech input expects.
    for card in ava.locator("[data-rack] [data-card]").all():
        shown = " ".join(card.inner_text().split())
        assert ava.get_by_role("button", name=shown, exact=True).count() == 1, shown
        assert card.get_attribute("aria-label") is None
    assert_accessible(ava, label=f"device {size}", include="#root")


def test_a_class_of_28_fits_the_projector_and_a_captains_device_in_every_kind_of_round(
    live_site, signed_in, class_7b, ms_rivera, long_cards
):
    """Fourteen a team: the captain's device with a crowd of suggestions, and the projector up to the
    winner screen that names all fourteen winners."""
    from games.models import GameTable
    from tests.factories import enrolled_student, started_session

    students = [enrolled_student(class_7b, display_name=f"Student {n:02d} Longname") for n in range(28)]
    session = off_thread(
        started_session,
        class_7b,
        ms_rivera,
        students,
        "lineup",
        board="short",
        answer_seconds=300,
        reveal_seconds=120,
    )
    live = Live.__new__(Live)
    live.url, live.teacher, live.students, live.session = live_site, ms_rivera, students, session
    live.table = GameTable.objects.get(session=session)
    live.failures = []
    live.team_of = {p: info["team"] for p, info in live.table.state["players"].items()}
    captain = live.captain("blue")
    student = next(s for s in students if f"s{s.pk}" == captain)
    live.devices = {captain: signed_in(live_site, student=student, width=1366, height=650)}
    live.projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    live.console = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    live.devices[captain].goto(f"{live_site}/play/{session.pk}/")
    live.projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    live.console.goto(f"{live_site}/sessions/{session.pk}/")
    live.wait()
    assert len(live.team_of) == 28

    live.check_all("28 purple answer", live.devices[captain])
    live.lock("blue", 5)
    live.lock("yellow", 1)
    live.wait()
    live.check_all("28 purple reveal", live.devices[captain])
    live.next_question()
    live.lock("blue", 5)
    live.lock("yellow", 0)
    live.next_question()
    live.wait()
    assert live.state["phase"] == "predict"
    # Everyone in blue suggests a prediction: the captain sees the tally and can still lock in.
    blue_members = [p for p, team in live.team_of.items() if team == "blue"]
    for n, player in enumerate(blue_members):
        live.act(player, {"type": "predict", "value": (1, 2, 3, 5)[n % 4]})
    captain = live.captain("blue")
    if captain not in live.devices:
        student = next(s for s in students if f"s{s.pk}" == captain)
        live.devices[captain] = signed_in(live_site, student=student, width=1366, height=650)
        live.devices[captain].goto(f"{live_site}/play/{session.pk}/")
    live.wait()
    live.check_all("28 orange predict", live.devices[captain])
    live.act(captain, {"type": "confirm"})
    live.choose("yellow", 1)
    live.lock("blue", 5)
    live.lock("yellow", 0)
    live.next_question()
    live.choose("blue", 5)
    live.choose("yellow", 1)
    live.lock("blue", 5)
    live.next_question()
    live.wait()
    assert live.state["phase"] == "final"
    live.lock("blue", 5)
    live.wait()
    assert live.state["phase"] == "over"
    live.check_all("28 game over", *live.devices.values(), controls=OVER)
    assert "Student" in live.projector.locator(".lu-winner-names").inner_text()
    assert not live.failures, "\n\n".join(live.failures)
