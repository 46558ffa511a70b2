"""Word Up in a real class: every screen fits the device it is shown on, in every phase, and the end of
the game reaches every screen.

These run the whole product (``live_site``: pages, websocket, clock) with sessions made through
``games.services``; turns are driven through ``games.services.action_submit`` (in a thread of its own:
the services' broadcasts cannot run on Playwright's event loop), and each screen is measured with
``tests.browser.fit`` at every phase: the whole board (its bottom row, where every pawn starts) and every
control needed to play must be visible without scrolling.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import server_side
from tests.browser.fit import (
    CONSOLES,
    PROJECTORS,
    STUDENT_DEVICES,
    assert_accessible,
    assert_fits,
    screenshot,
)

pytestmark = [pytest.mark.browser]

#: What a student must see without scrolling: every square of the board (the bottom row holds the start)
#: with its pawns, and every control of the move on offer.
PLAY_CONTROLS = (
    ".wu-board .wu-square, .wu-board .wu-pawn, .wu-move button, .wu-move input, .wu-move select, .wu-clock"
)
#: The projector: every board's squares and pawns, every token table and the question on show.
PROJECTOR_CONTROLS = ".wu-board .wu-square, .wu-board .wu-pawn, .wu-players td, .wu-question, .wu-result"


off_loop = server_side.call


def _students(classroom, n: int):
    from tests.factories import enrolled_student

    return [
        enrolled_student(
            classroom, given_name=f"Pupil{i:02d}", family_name="Test", display_name=f"Pupil {i:02d}"
        )
        for i in range(n)
    ]


def _start(classroom, teacher, students, **settings):
    from tests.factories import started_session

    return off_loop(started_session, classroom, teacher, students, "wordup", **settings)


def _steer(table_id: int, kind: str, category: str | None = None, card: str | None = None) -> str:
    """Put the player whose turn it is where the next roll lands on a square of ``kind`` (and put
    ``card`` on top of the deck). Row-locked, like every writer of a table. Returns that player."""
    from django.db import transaction

    from games.engine.wordup import board as B
    from games.models import GameTable
    from tests.loading import engine_module

    S = engine_module("test_wordup_support")
    with transaction.atomic():
        table = GameTable.objects.select_for_update().get(pk=table_id)
        state = table.state
        assert state["phase"] == "roll", state["phase"]
        square = next(
            s["index"]
            for s in B.BOARD
            if s["kind"] == kind and (category is None or s.get("category") == category)
        )
        state["positions"][state["turn"]] = (square - S.peek_dice(state)) % B.BOARD_SIZE
        if card:
            state["deck"].remove(card)
            state["deck"].insert(0, card)
        table.state = state
        table.save(update_fields=["state"])
        return state["turn"]


def _act(table_id: int, player: str, action: dict):
    from games import services

    return off_loop(services.action_submit, table_id=table_id, player=player, action=action, key=None)


def _state(table_id: int) -> dict:
    from games.models import GameTable

    return GameTable.objects.get(pk=table_id).state


def _key() -> str:
    import uuid

    return uuid.uuid4().hex


def _play(table_id: int, player: str, action: dict):
    from games import services

    return off_loop(services.action_submit, table_id=table_id, player=player, action=action, key=_key())


def _right_answer(table_id: int) -> dict:
    question = _state(table_id)["question"]
    if question["category"] == "multiple_choice":
        return {"type": "answer", "choice": question["right"][0]}
    return {"type": "answer", "answer": question["data"]["answers"][0]}


def _device(signed_in, live_site, session, student, size=(1366, 650)):
    page = signed_in(live_site, student=student, width=size[0], height=size[1])
    page.goto(f"{live_site}/play/{session.pk}/")
    page.locator(".wu-board").wait_for()
    return page


def _phase(page, phase: str, extra: str = "") -> None:
    page.locator(f'.wu-root[data-phase="{phase}"] {extra}'.strip()).first.wait_for()


def test_every_student_screen_fits_in_every_phase(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    from games.models import GameTable

    session = _start(class_7b, ms_rivera, [ava, ben], reveal_seconds=60)
    table = GameTable.objects.get(session=session)
    by_player = {f"s{s.pk}": s for s in (ava, ben)}
    first = _state(table.pk)["turn"]
    other = next(pid for pid in by_player if pid != first)
    mine = _device(signed_in, live_site, session, by_player[first])
    theirs = _device(signed_in, live_site, session, by_player[other], size=(1024, 690))

    def fits(label: str) -> None:
        assert_fits(mine, PLAY_CONTROLS, label=f"{label} (playing)")
        assert_fits(theirs, PLAY_CONTROLS, label=f"{label} (waiting)")
        assert_accessible(mine, label=f"{label} (playing)")
        assert_accessible(theirs, label=f"{label} (waiting)")
        for page, who in ((mine, "playing"), (theirs, "waiting")):
            text = page.locator("[data-tables]").inner_text()
            assert not re.search(r"\b(null|undefined|NaN)\b|%\(", text), (label, who, text)
            screenshot(page, f"wordup device {label} ({who})")
            size = page.viewport_size
            page.set_viewport_size({"width": 768, "height": 950})
            screenshot(page, f"wordup device {label} ({who}) portrait")
            page.set_viewport_size(size)

    # Every pawn on the start square, bottom right: the Roll button and the whole board.
    _phase(mine, "roll", ".wu-roll")
    state = _state(table.pk)
    assert set(state["positions"].values()) == {0}
    fits("roll, every pawn at the start")

    for category, colour in (
        ("missing_word", "orange"),
        ("crossword", "green"),
        ("multiple_choice", "blue"),
        ("spelling", "yellow"),
    ):
        _steer(table.pk, "question", category)
        _play(table.pk, first, {"type": "roll"})
        _phase(mine, "answer", f".wu-move .wu-question.wu-c-{colour}")
        _phase(theirs, "answer", f".wu-question.wu-c-{colour}")
        fits(f"answer {category}")
        _play(table.pk, first, _right_answer(table.pk))
        _phase(mine, "roll", ".wu-roll")

    # Two free tokens, a colour to choose (Bonus), a Word Up card, then a refused answer on show.
    _steer(table.pk, "free_two")
    _play(table.pk, first, {"type": "roll"})
    _phase(mine, "free_tokens", ".wu-move .wu-pair")
    fits("free tokens")
    take = next(a for a in _legal(table.pk, first) if a["type"] == "take")
    _play(table.pk, first, take)
    _phase(mine, "roll", ".wu-roll")

    _steer(table.pk, "bonus")
    _play(table.pk, first, {"type": "roll"})
    _phase(mine, "choose_category", ".wu-move .wu-option")
    fits("choose a colour")
    _play(table.pk, first, {"type": "choose", "category": "crossword"})
    _phase(mine, "answer", ".wu-move .wu-question.wu-c-green")
    _play(table.pk, first, _right_answer(table.pk))
    _phase(mine, "roll", ".wu-roll")

    # The longest card choices: give back one of four colours, or swap with a player (three lists).
    _give_tokens(table.pk, other, {"missing_word": 1, "spelling": 2})
    for card, extra in (("stop-or-lose-1", ".wu-group"), ("exchange-1", ".wu-exchange select")):
        _steer(table.pk, "word_up", card=card)
        _play(table.pk, first, {"type": "roll"})
        _phase(mine, "card_choice", f".wu-move {extra}")
        fits(f"a Word Up card {card}")
        _play(table.pk, first, {"type": "card", "choice": "stop" if card.startswith("stop") else "roll"})
        _phase(mine if card.startswith("exchange") else theirs, "roll", ".wu-roll")
        if card.startswith("stop"):  # the turn passed: the other player rolls onto Stop
            _steer(table.pk, "stop")
            _play(table.pk, other, {"type": "roll"})
            _phase(mine, "roll", ".wu-roll")
    # Lose two tokens with more than two: which two to give back (six pairs).
    _steer(table.pk, "lose_two")
    _play(table.pk, first, {"type": "roll"})
    _phase(mine, "discard", ".wu-move .wu-pair")
    fits("give back two tokens")
    _play(table.pk, first, next(a for a in _legal(table.pk, first) if a["type"] == "discard"))
    _phase(theirs, "roll", ".wu-roll")
    _steer(table.pk, "stop")
    _play(table.pk, other, {"type": "roll"})
    _phase(mine, "roll", ".wu-roll")

    _steer(table.pk, "word_up", card="free-orange")
    _play(table.pk, first, {"type": "roll"})
    _phase(mine, "card_choice", ".wu-move .wu-card")
    fits("a Word Up card")
    _play(table.pk, first, {"type": "card", "choice": "answer"})
    _phase(mine, "answer", ".wu-move .wu-question.wu-c-orange")
    _play(table.pk, first, {"type": "answer", "answer": "zzzz"})
    _phase(mine, "reveal", ".wu-result")
    _phase(theirs, "reveal", ".wu-result")
    fits("a refused answer on show")
    for page in (mine, theirs):
        assert page.errors == []


def _give_tokens(table_id: int, player: str, tokens: dict) -> None:
    from django.db import transaction

    from games.models import GameTable

    with transaction.atomic():
        table = GameTable.objects.select_for_update().get(pk=table_id)
        state = table.state
        state["tokens"][player].update(tokens)
        table.state = state
        table.save(update_fields=["state"])


def _legal(table_id: int, player: str) -> list[dict]:
    from games.engine.wordup import WordUp

    return WordUp().legal_actions(_state(table_id), player)


_BOARDS = """
() => [...document.querySelectorAll('.table-card')].map((card) => {
  const board = card.querySelector('.wu-board');
  const c = card.getBoundingClientRect(), b = board ? board.getBoundingClientRect() : null;
  const square = board ? board.querySelector('.wu-square').getBoundingClientRect() : null;
  const tokens = card.querySelector('.wu-players');
  const t = tokens ? tokens.getBoundingClientRect() : null;
  const within = (r) => r.bottom <= c.bottom + 1 && r.right <= c.right + 1;
  return {
    shown: !card.hidden,
    number: card.querySelector('.table-title').textContent,
    board: !!board,
    square: square ? Math.min(square.width, square.height) : 0,
    inside: !!b && within(b) && (!t || within(t)),
    overflow: card.scrollWidth > card.clientWidth + 1 || card.scrollHeight > card.clientHeight + 1,
  };
})
"""


@pytest.mark.parametrize("tables", [1, 2, 4, 8])
def test_the_projector_shows_every_board_whole(live_site, signed_in, class_7b, ms_rivera, tables):
    from games.models import GameTable

    students = _students(class_7b, 2 if tables == 1 else 4 * tables)
    session = _start(class_7b, ms_rivera, students)
    assert GameTable.objects.filter(session=session).count() == tables
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    projector.locator(".wu-board").nth(tables - 1).wait_for(state="attached", timeout=30_000)
    # A question on show on the first board: the panel beside the board must fit too.
    table = GameTable.objects.filter(session=session).order_by("number").first()
    first = _steer(table.pk, "question", "multiple_choice")
    _play(table.pk, first, {"type": "roll"})
    projector.locator(".wu-question").first.wait_for()
    assert_fits(projector, PROJECTOR_CONTROLS, label=f"projector, {tables} tables", viewports=PROJECTORS)
    assert_accessible(projector, label=f"projector, {tables} tables")
    for name, (width, height) in PROJECTORS.items():
        projector.set_viewport_size({"width": width, "height": height})
        projector.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        screenshot(projector, f"wordup projector {tables} tables {name}")
        # Every board is shown, whole and readable (a square at least 20 px): all at once, or a page of
        # them at a time (PageDown, as a presenter's clicker sends, turns the page; so does the clock).
        seen = set()
        # Twice round at most: the clock may also turn a page while the test is measuring one.
        for _page in range(2 * tables):
            for card in projector.evaluate(_BOARDS):
                if not card["shown"]:
                    continue
                seen.add(card["number"])
                assert card["board"] and card["inside"] and not card["overflow"], (name, card)
                assert card["square"] >= 20, (name, card)
            if len(seen) == tables:
                break
            projector.keyboard.press("PageDown")
            assert_fits(
                projector,
                PROJECTOR_CONTROLS,
                label=f"projector, {tables} tables, next page",
                viewports={name: (width, height)},
            )
        assert len(seen) == tables, (name, seen)
    assert projector.errors == []


def test_ending_the_game_stops_every_screen_and_the_results_keep_the_scores(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    from games.models import GameTable

    session = _start(class_7b, ms_rivera, [ava, ben])
    table = GameTable.objects.get(session=session)
    by_player = {f"s{s.pk}": s for s in (ava, ben)}
    first = _state(table.pk)["turn"]
    # One right answer (a token), and then it is the same player's roll again when the teacher ends it.
    _steer(table.pk, "question", "crossword")
    _play(table.pk, first, {"type": "roll"})
    _play(table.pk, first, _right_answer(table.pk))
    devices = {pid: _device(signed_in, live_site, session, student) for pid, student in by_player.items()}
    devices[first].locator(".wu-move .wu-roll").wait_for()
    devices[first].locator(".wu-clock").filter(has_text=re.compile(r"\d:\d\d")).wait_for()
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    watching = signed_in(live_site, user=ms_rivera)  # the console on a second screen
    watching.goto(f"{live_site}/sessions/{session.pk}/")
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    for page in (projector, watching, console):
        page.locator(".wu-root").first.wait_for()

    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the game").click()
    console.wait_for_url(re.compile(r"/results/$"))

    for pid, page in devices.items():
        page.get_by_text("Your teacher ended the game.").first.wait_for()
        assert page.locator(".wu-move").count() == 0  # no Roll, no answer box, no choices
        assert page.locator(".wu-clock").first.inner_text() == ""  # the clock has stopped
        page.keyboard.press("r")
        assert "Most tokens" in page.locator(".wu-ended").inner_text() or pid == first
    assert "You had the most tokens (1)." in devices[first].locator(".wu-ended").inner_text()
    projector.locator(".wu-ended").get_by_text("Your teacher ended the game.").wait_for()
    assert projector.locator(".table-card .countdown").first.is_hidden()
    watching.get_by_text("Ended by the teacher.").first.wait_for()
    assert watching.locator(".wu-accept-button").count() == 0
    assert _state(table.pk)["tokens"][first]["crossword"] == 1
    assert GameTable.objects.get(pk=table.pk).status == "ended"

    # The results of a game ended early: nobody won, and the scores as they stood.
    results = console.locator(".results-table").first
    assert "Ended early by the teacher." in results.inner_text()
    rows = results.locator("tbody tr")
    assert rows.count() == 2
    leader = by_player[first].display_name
    assert rows.first.inner_text().split() == [*leader.split(), "1"]
    for page in (*devices.values(), projector, watching):
        assert page.errors == []


def test_the_console_and_the_projector_during_a_refused_answer(
    live_site, signed_in, class_7b, ms_rivera, ava, ben
):
    """The console fits the teacher's screens with the Accept button in view, and the console, the
    projector and the device pass axe-core while a refused answer is on show."""
    from games.models import GameTable

    session = _start(class_7b, ms_rivera, [ava, ben])
    table = GameTable.objects.get(session=session)
    first = _state(table.pk)["turn"]
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    projector = signed_in(live_site, user=ms_rivera, width=1280, height=720)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    device = _device(signed_in, live_site, session, next(s for s in (ava, ben) if f"s{s.pk}" == first))
    for page in (console, projector):
        page.locator(".wu-root").first.wait_for()
    assert_accessible(console, label="console, a roll")
    _steer(table.pk, "question", "missing_word")
    _play(table.pk, first, {"type": "roll"})
    console.locator(".wu-compact-q").wait_for()
    assert_accessible(console, label="console, a question")
    _play(table.pk, first, {"type": "answer", "answer": "zzzz"})
    console.locator(".wu-accept-button").wait_for()
    projector.locator(".wu-result").wait_for()
    device.locator(".wu-result").wait_for()
    assert_fits(console, ".wu-accept-button, .wu-compact-reveal", label="console, Accept", viewports=CONSOLES)
    screenshot(console, "wordup console reveal")
    screenshot(projector, "wordup projector reveal")
    for page, label in ((console, "console"), (projector, "projector"), (device, "device")):
        assert_accessible(page, label=f"{label}, a refused answer on show")
        assert page.errors == []


_PAWNS_INSIDE = """
() => [...document.querySelectorAll('.wu-board .wu-pawn')].map((pawn) => {
  const s = pawn.closest('.wu-square').getBoundingClientRect(), r = pawn.getBoundingClientRect();
  return r.top >= s.top - 1 && r.bottom <= s.bottom + 1 && r.left >= s.left - 1 && r.right <= s.right + 1;
})
"""


def test_six_pawns_on_the_start_square_are_all_whole(new_page):
    """A board of six: every pawn starts on one square, and each must be seen whole there."""
    import json

    from games import content
    from games.engine import core
    from tests.browser.test_wordup_screen import GAME, Device

    players = [{"id": f"p{n}", "name": f"Player {n}", "level": 3} for n in range(6)]
    config = content.default_config("wordup", players=players, seed_rng=core.Rng("six"))
    state = GAME.setup(config, "six", now=0.0)
    for viewer in ({"role": "player", "player": "p0"}, {"role": "projector"}):
        device = Device(new_page(), viewer)
        view = json.loads(json.dumps(GAME.view(state, viewer)))
        device.page.evaluate(
            "(t) => window.draw(t)", {"table": 7, "number": 1, "seq": 1, "status": "playing", "view": view}
        )
        sizes = {**STUDENT_DEVICES, **PROJECTORS}
        for name, (width, height) in sizes.items():
            device.page.set_viewport_size({"width": width, "height": height})
            device.page.evaluate(
                "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            inside = device.page.evaluate(_PAWNS_INSIDE)
            assert len(inside) == 6 and all(inside), (viewer["role"], name, inside)
