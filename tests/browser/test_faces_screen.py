"""Line-Up's game screen (static/js/games/faces/*.js) in a real browser.

Each "device" is a page holding only the module, its CSS and a stand-in for the page controller (the ``ctx``
of docs/frontend.md); the rules run in this process through the real engine, so every phase, role and
control is exercised deterministically with no server: two students ask from the pad, are refused, name a
face with the keyboard, see the round's faces, get ready, and one resigns; the teacher and the projector
watch.
"""

from __future__ import annotations

import json
import re

import pytest

from games.engine.core import IllegalAction
from games.engine.faces import Faces
from games.engine.faces.art import face_svg
from games.engine.faces.features import FEATURE_BY_KEY, question_splits
from tests.browser.harness import open_device

pytestmark = [pytest.mark.browser]

GAME = Faces()
AVA, BEN = "s1", "s2"


class Bench:
    """One Line-Up table played through the engine, shown on several pages (devices)."""

    def __init__(self, new_page, seed="browser-faces-1"):
        self.new_page = new_page
        self.now = 100.0
        config = {"players": [{"id": AVA, "name": "Alex P."}, {"id": BEN, "name": "Sam T."}]}
        self.state = GAME.setup(config, seed, now=self.now)
        self.seq = 1
        self.status = "playing"
        self.pages: dict[str, tuple] = {}

    def device(self, name, role, player=None, compact=False, width=1366, height=768):
        page = open_device(self.new_page, "faces", role, player, compact, width=width, height=height)
        viewer = {"role": role, "player": player} if role == "player" else {"role": role}
        self.pages[name] = (page, viewer, player)
        self.draw(name)
        return page

    def message(self, viewer):
        return {
            "table": 7,
            "number": 3,
            "seq": self.seq,
            "status": self.status,
            "view": json.loads(json.dumps(GAME.view(self.state, viewer))),
        }

    def draw(self, name):
        page, viewer, _player = self.pages[name]
        page.evaluate("t => window.draw(t)", self.message(viewer))

    def pump(self):
        """Apply every action the devices sent, in order; redraw every device after each change."""
        for _round in range(20):
            sent = False
            for page, _viewer, player in list(self.pages.values()):
                for item in page.evaluate("window.takeOutbox()"):
                    sent = True
                    self.now += 1
                    try:
                        self.state, _events = GAME.apply(self.state, player, item["action"], self.now)
                    except IllegalAction as illegal:
                        message = illegal.message % illegal.params if illegal.params else illegal.message
                        page.evaluate("a => window.settle(...a)", [item["id"], False, message, self.seq])
                        continue
                    self.seq += 1
                    self.status = "finished" if GAME.is_over(self.state) else "playing"
                    for name in self.pages:
                        self.draw(name)
                    page.evaluate("a => window.settle(...a)", [item["id"], True, "", self.seq])
            if not sent:
                return
        raise AssertionError("the devices never stopped sending")

    def secret(self, player):
        return self.state["rounds"][self.state["round"]]["secret"][player]

    def face(self, face_id):
        return next(f for f in self.state["rounds"][self.state["round"]]["board"] if f["id"] == face_id)

    def target(self, player):
        """The face ``player`` is looking for: the other player's secret."""
        return self.secret(AVA if player == BEN else BEN)


def other(player):
    return BEN if player == AVA else AVA


def assert_no_errors(*pages):
    for page in pages:
        assert page.evaluate("window.errors") == []


def test_a_round_between_two_students_with_the_teacher_and_the_projector_watching(new_page):
    bench = Bench(new_page)
    ava = bench.device("ava", "player", AVA)
    ben = bench.device("ben", "player", BEN, width=1024, height=768)  # a tablet in landscape
    teacher = bench.device("teacher", "teacher", compact=True, width=900, height=700)
    projector = bench.device("projector", "projector", width=1280, height=720)
    devices = {AVA: ava, BEN: ben}
    first = bench.state["turn"]
    asker, waiter = devices[first], devices[other(first)]

    # Everyone sees the board, their own card, and whose turn it is.
    assert ava.evaluate("window.gameName") == "faces"
    assert asker.get_by_text("Your turn: ask one question or name a face.").is_visible()
    name_of = {AVA: "Alex P.", BEN: "Sam T."}
    assert waiter.get_by_text(f"{name_of[first]}'s turn. Get ready.").is_visible()
    for pid, page in devices.items():
        own = bench.face(bench.secret(pid))
        assert page.locator(".fc-card .fc-card-name").inner_text() == own["name"]
        assert page.locator(".fc-board > li").count() == 24
        assert page.get_by_role("heading", name="Your board: 24 faces left").is_visible()
    # The waiting student's faces are pictures, not buttons; the asker's are buttons that name a face.
    assert waiter.locator(".fc-board button").count() == 0
    assert asker.locator(".fc-board button").count() == 24
    assert waiter.locator(".fc-pad button:enabled").count() == 0

    # 1. The asker taps a question from the pad.
    splits = question_splits(bench.state, first)
    question = max(splits, key=lambda key: min(splits[key], 24 - splits[key]))
    label = FEATURE_BY_KEY[question].label
    asker.get_by_role("button", name=f"{label}?", exact=True).click()
    bench.pump()
    entry = bench.state["asked"][first][-1]
    left = len(bench.state["left"][first])
    assert asker.get_by_role("heading", name=f"Your board: {left} faces left").is_visible()
    assert asker.locator(".fc-board > li.is-out").count() == 24 - left
    assert asker.get_by_text(f"It kept {entry['kept']} faces and removed {entry['removed']}.").is_visible()
    assert asker.get_by_text("Split quality: 100 % of the best on the pad").is_visible()
    # The other student sees the question, its answer and how many faces the asker has left.
    answer = "yes" if entry["answer"] else "no"
    assert any(
        FEATURE_BY_KEY[question].question in text and f"Answer: {answer}" in text
        for text in waiter.evaluate("window.announced")
    )
    assert waiter.get_by_text(f"{name_of[first]}'s board: {left} faces left").is_visible()
    assert waiter.locator(".fc-history-list li").count() == 1
    assert waiter.get_by_text("Your turn: ask one question or name a face.").is_visible()

    # 2. Asked questions are crossed out on the asker's pad, with the reason.
    refused = asker.get_by_role("button", name=re.compile(rf"^{re.escape(label)}\?"))
    assert refused.is_disabled()
    assert "Already asked this round." in refused.get_attribute("title")

    # The teacher sees faces left per side and the question; the projector shows no face at all.
    assert teacher.locator(".fc-teacher-list li").count() == 2
    assert teacher.get_by_text(f"{left} faces left").is_visible()
    assert teacher.locator(".fc-last").first.inner_text().startswith(f"{label}?")
    text = projector.locator("#root").inner_text()
    assert "Alex P." in text and "Sam T." in text
    assert projector.locator("svg").count() == 0
    for face in bench.state["rounds"][0]["board"]:
        assert face["name"] not in text

    # 3. The other student names a face with the keyboard: a letter opens the confirmation, Escape cancels.
    namer = other(first)
    wrong = next(f for f in bench.state["left"][namer] if f != bench.target(namer))
    waiter.locator("body").press(wrong.lower())
    dialog = waiter.get_by_role("alertdialog")
    assert dialog.get_by_text(f"Name {bench.face(wrong)['name']}?").is_visible()
    assert waiter.evaluate("document.activeElement.textContent").startswith("Yes, name")
    waiter.keyboard.press("Escape")
    assert waiter.get_by_role("alertdialog").count() == 0
    assert waiter.evaluate("window.takeOutbox()") == []
    # ... and the right face, confirmed with Enter, wins the round.
    target = bench.target(namer)
    waiter.locator("body").press(target.lower())
    waiter.keyboard.press("Enter")
    bench.pump()
    assert bench.state["phase"] == "reveal" and bench.state["wins"][namer] == 1
    assert waiter.get_by_role("heading", name="You won round 1!").is_visible()
    assert asker.get_by_role("heading", name=f"{name_of[namer]} won round 1.").is_visible()
    # Both faces are shown to both, with their names.
    for page in (ava, ben):
        figures = page.locator(".fc-result .fc-mini")
        assert figures.count() == 2
        assert page.locator(".fc-result svg[role=img] title").count() == 2
    assert asker.get_by_text(f"Your face: {bench.face(bench.secret(first))['name']}").is_visible()
    assert "You won round 1!" in waiter.evaluate("window.announced").pop(-1)
    assert projector.get_by_text(f"Round 1: {name_of[namer]}").is_visible()
    assert teacher.locator(".fc-more .fc-mini").count() == 2  # the faces, once the round is over

    # 4. Both tap ready: round two, and the loser of round one asks first.
    asker.get_by_role("button", name="Ready for the next round").click()
    bench.pump()
    assert asker.get_by_text("Waiting for").is_visible()
    waiter.get_by_role("button", name="Ready for the next round").click()
    bench.pump()
    assert bench.state["round"] == 1 and bench.state["turn"] == first
    assert asker.get_by_text("Your turn: ask one question or name a face.").is_visible()
    assert any("Round 2 starts" in said for said in asker.evaluate("window.announced"))
    assert asker.get_by_role("heading", name="Your board: 24 faces left").is_visible()

    # 5. Resigning asks first, then ends the match: the seed is published for checking.
    waiter.get_by_role("button", name="Resign").click()
    waiter.get_by_role("button", name="Keep playing").click()
    assert waiter.evaluate("window.takeOutbox()") == []
    waiter.get_by_role("button", name="Resign").click()
    waiter.get_by_role("button", name="Yes, resign").click()
    bench.pump()
    assert bench.state["phase"] == "over"
    assert asker.get_by_role("heading", name="You won the match!").is_visible()
    # The score agrees with the result: the resigning player concedes the round the winner still needed.
    assert waiter.get_by_text(f"You resigned, so {name_of[first]} wins the match 2–1.").is_visible()
    assert asker.get_by_text(f"{name_of[namer]} resigned, so you win the match 2–1.").is_visible()
    assert asker.locator(".fc-score .is-winner .fc-wins").inner_text() == "2"
    asker.get_by_text("Check that the faces were fair").click()
    assert asker.get_by_text(bench.state["rng"]["seed"]).is_visible()
    link = asker.get_by_role("link", name="Verify this match")
    assert link.get_attribute("href") == "/games/faces/verify/7/"
    # The unfinished round's faces are shown too.
    assert asker.get_by_text("The last round was not finished. Its faces were:").is_visible()
    assert_no_errors(ava, ben, teacher, projector)


def test_a_refused_question_shows_the_server_reason(new_page):
    bench = Bench(new_page, seed="browser-faces-2")
    first = bench.state["turn"]
    page = bench.device("asker", "player", first, width=768, height=1024)  # a tablet in portrait
    key = next(iter(question_splits(bench.state, first)))
    page.get_by_role("button", name=f"{FEATURE_BY_KEY[key].label}?", exact=True).click()
    # The server refuses (e.g. the time ran out meanwhile): the reason is shown and read out.
    (item,) = page.evaluate("window.takeOutbox()")
    page.evaluate("a => window.settle(...a)", [item["id"], False, "Time is up for this turn.", bench.seq])
    alert = page.get_by_role("alert")
    assert alert.inner_text() == "Time is up for this turn."
    assert "Time is up for this turn." in page.evaluate("window.announced")
    assert_no_errors(page)


def test_the_browser_draws_the_same_faces_as_the_server(new_page):
    bench = Bench(new_page, seed="browser-faces-3")
    page = bench.device("ava", "player", AVA)
    for face in bench.state["rounds"][0]["board"][:6]:
        drawn = page.evaluate("f => window.gameModule.faceSvg(f)", face)
        assert re.sub(r"fc[0-9a-f]{8,10}", "ID", drawn) == re.sub(r"fc[0-9a-f]{8,10}", "ID", face_svg(face))
    assert_no_errors(page)


# ==================================================================================================
# The real pages: a teacher starts a session; two students play a round, then one resigns and the other
# checks the match on the verify page
# ==================================================================================================


@pytest.mark.django_db(transaction=True)
def test_live_two_students_play_a_round_through_the_real_pages(live_site, signed_in, class_7b, ms_rivera):
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import GameTable
    from tests.factories import enrolled_student

    url = live_site
    students = [enrolled_student(class_7b, display_name=name) for name in ("Alex P.", "Sam T.")]
    session = services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="faces",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings={"turn_seconds": 300, "bot": "medium"},
    )
    console = signed_in(url, user=ms_rivera)
    console.goto(f"{url}/sessions/{session.pk}/")
    console.get_by_role("button", name="Open the lobby now").click()
    console.get_by_role("button", name="Start the game").wait_for()

    devices = {}
    for student, (width, height) in zip(students, [(1366, 768), (1024, 768)], strict=True):
        page = signed_in(url, student=student, width=width, height=height)
        page.goto(f"{url}/play/{session.pk}/")
        page.get_by_role("button", name="Join the game").click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices[f"s{student.pk}"] = page
    projector = signed_in(url, user=ms_rivera)
    projector.goto(f"{url}/sessions/{session.pk}/projector/")

    console.get_by_role("button", name="Start the game").click()
    for page in devices.values():
        page.get_by_role("heading", name="Your board: 24 faces left").wait_for()
    table = GameTable.objects.get(session=session)
    first = table.state["turn"]
    second = next(pid for pid in table.state["players"] if pid != first)
    asker, namer = devices[first], devices[second]
    asker.locator(".fc-turn.is-you").wait_for()

    # The asker asks the question nearest to halving; the answer reaches both devices and the console.
    splits = question_splits(table.state, first)
    question = max(splits, key=lambda key: min(splits[key], 24 - splits[key]))
    asker.get_by_role("button", name=f"{FEATURE_BY_KEY[question].label}?", exact=True).click()
    asker.get_by_text("Split quality: 100 % of the best on the pad").wait_for()
    namer.locator(".fc-turn.is-you").wait_for()
    namer.locator(".fc-history-list li").first.wait_for()
    console.locator(".fc-last").first.wait_for()

    # The other student names the right face with the keyboard (letter, then Enter on "Yes").
    table.refresh_from_db()
    target = table.state["rounds"][0]["secret"][first]
    namer.locator("body").press(target.lower())
    namer.get_by_role("alertdialog").wait_for()
    namer.keyboard.press("Enter")
    namer.get_by_role("heading", name="You won round 1!").wait_for()
    asker.get_by_role("heading", name=re.compile(r"won round 1\.$")).wait_for()
    assert asker.locator(".fc-result svg[role=img]").count() == 2
    projector.get_by_text(re.compile(r"Round 1: ")).wait_for()
    assert projector.locator(".fc svg").count() == 0

    # Both are ready: round two starts, and the loser of round one asks first.
    for page in (asker, namer):
        page.get_by_role("button", name="Ready for the next round").click()
    for page in (asker, namer):
        page.get_by_role("heading", name="Your board: 24 faces left").wait_for()
    asker.locator(".fc-turn.is-you").wait_for()

    # The winner of round one resigns; the other wins the match and checks it on the verify page.
    namer.get_by_role("button", name="Resign").click()
    namer.get_by_role("button", name="Yes, resign").click()
    asker.get_by_role("heading", name="You won the match!").first.wait_for()
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED and table.outcome["winners"] == [first]
    asker.get_by_text("Check that the faces were fair").click()
    asker.get_by_role("link", name="Verify this match").click()
    asker.get_by_text("Verified: this match was fair.").wait_for()
    assert table.seed in asker.content()
    for page in (*devices.values(), console, projector):
        assert page.errors == []
