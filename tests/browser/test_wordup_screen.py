"""Word Up's game screen (static/js/games/wordup/) in a real browser.

The bench tests drive the module directly: each "device" is a page holding only the module, its CSS and a
stand-in for the page controller (the ``ctx`` of docs/frontend.md), while the rules run in this process
through the real engine. So every phase, role and control is exercised deterministically, with no server:
students roll, choose colours, answer all four categories (the spelling one by ear, with the audio
requests answered here), play Word Up cards; the teacher accepts a refused answer; the projector watches.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import wave

import pytest

from games import content
from games.engine import core
from games.engine.core import TEACHER, IllegalAction
from tests.browser.harness import mount
from tests.loading import engine_module

pytestmark = [pytest.mark.browser]

SHOTS = pathlib.Path("/tmp/wordup-shots")
ORIGIN = "http://wordup.test"
PAGE = '<!DOCTYPE html><html lang="en"><body><main id="main"><div id="root"></div></main></body></html>'


S = engine_module("test_wordup_support")
GAME = S.GAME


def silent_wav(seconds: float = 0.2) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x00" * int(8000 * seconds))
    return out.getvalue()


class Device:
    def __init__(self, page, viewer: dict, compact: bool = False):
        self.page = page
        self.viewer = viewer
        self.audio_requests: list[str] = []
        # A real origin, so the module's relative audio URLs resolve (both are answered here, no network).
        page.route(
            ORIGIN + "/",
            lambda route: route.fulfill(
                status=200,
                content_type="text/html",
                body=PAGE,
            ),
        )
        page.route(ORIGIN + "/games/wordup/audio/**", self._audio)
        page.goto(ORIGIN + "/")
        mount(page, "wordup", viewer.get("role"), viewer.get("player"), compact)

    def _audio(self, route):
        self.audio_requests.append(route.request.url)
        route.fulfill(status=200, content_type="audio/wav", body=silent_wav())

    def errors(self) -> list[str]:
        return self.page.evaluate("window.errors")


class Bench:
    """One table played through the engine, shown on several pages (devices)."""

    def __init__(self, state: dict, now: float = 10.0):
        self.state = state
        self.now = now
        self.seq = 1
        self.devices: list[Device] = []
        self.refuse_next: str | None = None

    def add(self, page, viewer: dict, compact: bool = False) -> Device:
        device = Device(page, viewer, compact)
        self.devices.append(device)
        self.draw(device)
        return device

    def table(self, viewer: dict) -> dict:
        view = json.loads(json.dumps(GAME.view(self.state, viewer)))
        status = "finished" if self.state["phase"] == "over" else "playing"
        return {"table": 7, "number": 1, "seq": self.seq, "status": status, "view": view}

    def draw(self, device: Device) -> None:
        device.page.evaluate("(t) => window.draw(t)", self.table(device.viewer))

    def draw_all(self) -> None:
        for device in self.devices:
            self.draw(device)

    def pump(self, device: Device) -> list[dict]:
        """Apply what the device sent (as the server would), answer it, and redraw every device."""
        sent = device.page.evaluate("window.takeOutbox()")
        player = device.viewer.get("player") or TEACHER
        for item in sent:
            try:
                if self.refuse_next:  # as the runtime does, e.g. "Time is up for that move."
                    message, self.refuse_next = self.refuse_next, None
                    raise IllegalAction(message)
                self.state, _events = GAME.apply(self.state, player, item["action"], self.now)
            except IllegalAction as refused:
                device.page.evaluate("([i, m]) => window.settle(i, false, m)", [item["id"], refused.message])
            else:
                self.seq += 1
                device.page.evaluate("([i, s]) => window.settle(i, true, '', s)", [item["id"], self.seq])
            self.now += 1
        self.draw_all()
        return [item["action"] for item in sent]

    def deadline(self) -> None:
        self.state, _events = GAME.on_deadline(self.state, self.now)
        self.seq += 1
        self.draw_all()


def shot(device, name: str) -> None:
    """A screenshot for people to look at (not compared): /tmp/wordup-shots/<name>.png."""
    SHOTS.mkdir(exist_ok=True)
    page = device.page if isinstance(device, Device) else device
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fresh_state(players: int = 2, levels=(1, 3)) -> dict:
    config = content.default_config(
        "wordup",
        players=[
            {"id": f"p{n}", "name": name, "level": levels[n % len(levels)]}
            for n, name in enumerate(["Ava M.", "Ben K.", "Chloe L.", "Dev P."][:players])
        ],
        seed_rng=core.Rng("bench"),
    )
    return GAME.setup(config, "bench-seed", now=0.0)


def onto(state: dict, kind: str, category: str | None = None) -> dict:
    """Put the player whose turn it is where their next roll lands on a square of ``kind``."""
    state = core.clone(state)
    square = S.square_of(kind, category)
    state["positions"][state["turn"]] = (square - S.peek_dice(state)) % 40
    return state


# ------------------------------------------------------------------------------------------------
# The student's device: a turn on each category
# ------------------------------------------------------------------------------------------------


def test_a_student_plays_a_turn_on_each_category_with_mouse_keys_and_ear(new_page):
    bench = Bench(onto(fresh_state(), "question", "missing_word"))
    first = bench.state["turn"]
    other = next(p for p in bench.state["seating"] if p != first)
    device = bench.add(new_page(), {"role": "player", "player": first})
    watcher = bench.add(new_page(1024, 768), {"role": "player", "player": other})
    page = device.page

    # Roll with the keyboard (R).
    page.get_by_role("button", name=re.compile("Roll the dice")).wait_for()
    watcher.page.get_by_text(re.compile("is rolling the dice")).first.wait_for()
    page.keyboard.press("r")
    assert bench.pump(device) == [{"type": "roll"}]

    # Missing Word: the gap, the letter count, the answer box has the focus; type and press Enter.
    question = bench.state["question"]
    assert question["category"] == "missing_word"
    box = page.get_by_label("Your answer")
    box.wait_for()
    assert page.evaluate("document.activeElement.classList.contains('wu-input')")
    page.get_by_text(re.compile(r"The missing word has \d+ letters?")).wait_for()
    shot(device, "device-missing-word")
    box.type(question["data"]["answers"][0])
    page.get_by_text(re.compile(r"\d+ of \d+ letters")).wait_for()
    box.press("Enter")
    bench.pump(device)
    assert bench.state["tokens"][first]["missing_word"] == 1 and bench.state["phase"] == "roll"
    page.locator(".wu-result-right").wait_for()
    assert any("right!" in text.lower() for text in page.evaluate("window.announced"))

    # Crossword: the clue and its first letter; a click on Send.
    bench.state = onto(bench.state, "question", "crossword")
    bench.draw_all()
    page.get_by_role("button", name=re.compile("Roll the dice")).click()
    bench.pump(device)
    question = bench.state["question"]
    assert question["category"] == "crossword"
    page.locator(".wu-letter").wait_for()
    assert page.locator(".wu-letter").inner_text() == question["data"]["first_letter"].upper()
    page.get_by_label("Your answer").fill(question["data"]["answers"][0].upper())  # capitals don't matter
    page.get_by_role("button", name="Send").click()
    bench.pump(device)
    assert bench.state["tokens"][first]["crossword"] == 1

    # Multiple Choice: three buttons; key 1-3 picks one.
    bench.state = onto(bench.state, "question", "multiple_choice")
    bench.draw_all()
    page.keyboard.press("r")
    bench.pump(device)
    question = bench.state["question"]
    right = question["right"][0]
    page.locator(".wu-mc .wu-option").nth(2).wait_for()
    assert page.locator(".wu-mc .wu-option").count() == 3
    page.locator("body").focus()
    page.keyboard.press(str(right + 1))
    assert bench.pump(device) == [{"type": "answer", "choice": right}]
    assert bench.state["tokens"][first]["multiple_choice"] == 1

    # Spelling: heard, never shown. The device fetches the sentence and then the word by serial only.
    bench.state = onto(bench.state, "question", "spelling")
    bench.draw_all()
    page.keyboard.press("r")
    bench.pump(device)
    question = bench.state["question"]
    word, sentence = question["data"]["answers"][0], question["data"]["sentence"]
    page.get_by_label("Type the word you heard").wait_for()
    page.get_by_role("button", name=re.compile("Say it again")).click()
    page.wait_for_function("() => document.querySelector('.wu-sound-state').textContent === ''", timeout=3000)
    serial = question["serial"]
    assert device.audio_requests[0].endswith(f"/games/wordup/audio/7/{serial}/sentence/")
    assert device.audio_requests[1].endswith(f"/games/wordup/audio/7/{serial}/word/")
    assert watcher.audio_requests == []  # the other player's device asks for nothing
    for dev in (device, watcher):
        html = dev.page.locator("#root").inner_html()
        assert word not in html and sentence not in html
    watcher.page.get_by_text(re.compile("Only .* hears the word")).wait_for()
    shot(device, "device-spelling")
    page.get_by_label("Type the word you heard").fill(word)
    page.get_by_role("button", name="Send").click()
    bench.pump(device)
    assert bench.state["tokens"][first]["spelling"] == 1
    page.get_by_role("button", name="Hear the word").wait_for()  # public now
    assert device.errors() == [] and watcher.errors() == []


def test_the_answer_in_progress_survives_a_redraw_with_the_focus(new_page):
    bench = Bench(onto(fresh_state(), "question", "crossword"))
    first = bench.state["turn"]
    device = bench.add(new_page(), {"role": "player", "player": first})
    device.page.keyboard.press("r")
    bench.pump(device)
    box = device.page.get_by_label("Your answer")
    box.type("hal")
    bench.draw_all()  # another table change arrives while typing
    box = device.page.get_by_label("Your answer")
    assert box.input_value() == "hal"
    assert device.page.evaluate("document.activeElement.classList.contains('wu-input')")


def test_a_refused_move_shows_the_servers_reason(new_page):
    bench = Bench(onto(fresh_state(), "question", "missing_word"))
    first = bench.state["turn"]
    device = bench.add(new_page(), {"role": "player", "player": first})
    device.page.keyboard.press("r")
    bench.pump(device)
    device.page.get_by_label("Your answer").fill("x" * 120)
    assert len(device.page.get_by_label("Your answer").input_value()) == 100  # the box stops at 100
    bench.refuse_next = "Time is up for that move."
    device.page.get_by_role("button", name="Send").click()
    bench.pump(device)  # refused, and every screen redrawn: the reason stays on show
    device.page.get_by_role("alert").filter(has_text="Time is up for that move.").wait_for()
    assert device.page.get_by_role("button", name="Send").is_enabled()
    assert "Time is up for that move." in device.page.evaluate("window.announced")


# ------------------------------------------------------------------------------------------------
# Choices: colours, cards, tokens
# ------------------------------------------------------------------------------------------------


def test_bonus_square_offers_every_colour_for_two_tokens(new_page):
    bench = Bench(fresh_state())
    first = bench.state["turn"]
    state = core.clone(bench.state)
    state["positions"][first] = (40 - S.peek_dice(state)) % 40
    bench.state = state
    device = bench.add(new_page(), {"role": "player", "player": first})
    device.page.keyboard.press("r")
    bench.pump(device)
    assert bench.state["phase"] == "choose_category"
    device.page.get_by_text("A right answer wins two tokens.").wait_for()
    buttons = device.page.locator(".wu-move .wu-option")
    assert buttons.count() == 4
    assert "you need 2" in buttons.first.inner_text()
    device.page.keyboard.press("3")
    assert bench.pump(device) == [{"type": "choose", "category": "multiple_choice"}]
    device.page.get_by_text("for 2 tokens").wait_for()


@pytest.mark.parametrize(
    ("card", "label", "action"),
    [
        ("free-orange", "Take the free orange token (and stop)", {"type": "card", "choice": "take"}),
        ("stop-or-lose-1", "green", {"type": "card", "choice": "lose", "category": "crossword"}),
    ],
)
def test_word_up_card_choices(new_page, card, label, action):
    state = S.set_tokens(fresh_state(), fresh_state()["turn"], crossword=1)
    bench = Bench(state)
    first = bench.state["turn"]
    bench.state, _ = S.draw_card(bench.state, card)
    device = bench.add(new_page(), {"role": "player", "player": first})
    device.page.locator(".wu-card").first.wait_for()
    device.page.get_by_role("button", name=label).click()
    assert bench.pump(device) == [action]


def test_exchange_card_picks_player_and_colours(new_page):
    state = fresh_state(3)
    first = state["turn"]
    others = [p for p in state["seating"] if p != first]
    state = S.set_tokens(state, first, missing_word=3)
    state = S.set_tokens(state, others[1], spelling=1, crossword=1)
    bench = Bench(state)
    bench.state, _ = S.draw_card(bench.state, "exchange-1")
    device = bench.add(new_page(), {"role": "player", "player": first})
    form = device.page.locator(".wu-exchange")
    form.wait_for()
    assert form.get_by_label("Swap with").locator("option").count() == 1  # only one player has tokens
    form.get_by_label("Their token to take").select_option("spelling")
    shot(device, "device-exchange")
    form.get_by_role("button", name="Swap and roll again").click()
    assert bench.pump(device) == [
        {"type": "card", "choice": "exchange", "with": others[1], "give": "missing_word", "take": "spelling"}
    ]
    assert bench.state["tokens"][first]["spelling"] == 1


def test_lose_two_and_free_tokens_squares(new_page):
    state = fresh_state()
    first = state["turn"]
    state = S.set_tokens(state, first, missing_word=2, crossword=1)
    bench = Bench(onto(state, "lose_two"))
    device = bench.add(new_page(), {"role": "player", "player": first})
    device.page.keyboard.press("r")
    bench.pump(device)
    device.page.get_by_text("Give back two tokens").first.wait_for()
    device.page.get_by_role("button", name="Two orange").click()
    assert bench.pump(device) == [{"type": "discard", "categories": ["missing_word", "missing_word"]}]
    # The next player lands on Two free tokens.
    bench.state = onto(bench.state, "free_two")
    second = bench.state["turn"]
    other = bench.add(new_page(), {"role": "player", "player": second})
    other.page.keyboard.press("r")
    bench.pump(other)
    other.page.get_by_role("button", name="orange and yellow").click()
    assert bench.pump(other) == [{"type": "take", "categories": ["missing_word", "spelling"]}]


# ------------------------------------------------------------------------------------------------
# The teacher and the projector
# ------------------------------------------------------------------------------------------------


def test_the_teacher_accepts_a_refused_answer_from_the_console(new_page):
    bench = Bench(onto(fresh_state(), "question", "crossword"))
    first = bench.state["turn"]
    device = bench.add(new_page(1024, 768), {"role": "player", "player": first})
    console = bench.add(new_page(), {"role": "teacher"}, compact=True)
    projector = bench.add(new_page(1920, 1080), {"role": "projector"})
    device.page.keyboard.press("r")
    bench.pump(device)
    answer = bench.state["question"]["data"]["answers"][0]
    projector.page.locator(".wu-side .wu-question").wait_for()
    for screen in (projector, console):
        assert answer not in screen.page.locator("#root").inner_html()
    shot(projector, "projector-question")
    device.page.get_by_label("Your answer").fill(answer + "zz")
    device.page.get_by_role("button", name="Send").click()
    bench.pump(device)
    assert bench.state["phase"] == "reveal"
    console.page.get_by_text(re.compile("typed .*" + answer + "zz")).wait_for()
    shot(console, "console-reveal")
    shot(projector, "projector-reveal")
    console.page.get_by_role("button", name=re.compile("Accept .* answer")).click()
    assert bench.pump(console) == [{"type": "accept", "question": 1}]
    assert bench.state["tokens"][first]["crossword"] == 1
    device.page.get_by_text("Accepted by the teacher").wait_for()


def test_the_projector_never_shows_levels_or_the_spelling_word(new_page):
    bench = Bench(onto(fresh_state(4), "question", "spelling"))
    projector = bench.add(new_page(1366, 768), {"role": "projector"})
    bench.state, _ = GAME.apply(bench.state, bench.state["turn"], {"type": "roll"}, 11.0)
    bench.draw_all()
    data = bench.state["question"]["data"]
    html = projector.page.locator("#root").inner_html()
    assert data["answers"][0] not in html and data["sentence"] not in html
    assert "Elementary" not in html and "Level" not in html
    assert projector.audio_requests == []
    assert projector.page.locator(".wu-pawn").count() >= 4
    shot(projector, "projector-spelling")
    assert projector.errors() == []


def test_the_teacher_full_view_and_replay_draw_a_finished_game(new_page):
    state = fresh_state(3)
    rng = core.Rng("bots")
    now = 1.0
    while state["phase"] != "over":
        players = GAME.current_players(state)
        if players:
            state, _ = GAME.apply(state, players[0], GAME.bot_action(state, players[0], rng), now)
        else:
            state, _ = GAME.on_deadline(state, now)
        now += 1
    bench = Bench(state)
    teacher = bench.add(new_page(), {"role": "teacher"})
    replay = bench.add(new_page(), {"role": "replay"})
    teacher.page.locator(".wu-over").wait_for()
    assert teacher.page.locator(".wu-winner-row").count() >= 1
    assert teacher.page.get_by_role("columnheader", name="Level").count() == 1
    replay.page.locator(".wu-over").wait_for()
    shot(teacher, "teacher-over")
    assert teacher.errors() == [] and replay.errors() == []


def test_a_tablet_in_portrait_shows_the_move_before_the_board(new_page):
    bench = Bench(fresh_state())
    device = bench.add(new_page(768, 1024), {"role": "player", "player": bench.state["turn"]})
    roll = device.page.get_by_role("button", name=re.compile("Roll the dice")).bounding_box()
    board = device.page.locator(".wu-board").bounding_box()
    assert roll["y"] < board["y"]
    assert board["width"] <= 768
    shot(device, "tablet")


# ------------------------------------------------------------------------------------------------
# The real thing: pages, websocket, clock, audio endpoint
# ------------------------------------------------------------------------------------------------


def _steer(table_id: int, category: str) -> str:
    """Put the player whose turn it is where the next roll lands on a ``category`` square (the dice are
    part of the state). Returns that player. Row-locked, like every writer of a table."""
    from django.db import transaction

    from games.engine.wordup import board as B
    from games.models import GameTable

    with transaction.atomic():
        table = GameTable.objects.select_for_update().get(pk=table_id)
        state = table.state
        assert state["phase"] == "roll", state["phase"]
        square = next(s["index"] for s in B.BOARD if s.get("category") == category)
        state["positions"][state["turn"]] = (square - S.peek_dice(state)) % B.BOARD_SIZE
        table.state = state
        table.save(update_fields=["state"])
        return state["turn"]


def _question(table_id: int) -> dict:
    from games.models import GameTable

    return GameTable.objects.get(pk=table_id).state["question"]


def test_a_live_game_a_turn_on_each_category_the_spelling_heard_and_a_teacher_accept(
    live_site, signed_in, class_7b, ms_rivera, ava, ben, settings, tmp_path
):
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.definitions.wordup import pages as audio
    from games.models import GameTable
    from tests.factories import recorded_facts

    settings.WORDUP_AUDIO_DIR = tmp_path / "audio"
    # The longest reveal (60 s): the teacher's Accept must not race the default 8 s on a busy CI machine.
    session = services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="wordup",
        # An hour ahead: the clock opens a lobby by itself 10 minutes before, which would hide the teacher's
        # "Open the lobby now" before the test could click it.
        scheduled_for=timezone.now() + timedelta(hours=1),
        title="Word Up 7B",
        settings={"reveal_seconds": 60},
    )
    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/sessions/{session.pk}/")
    console.get_by_role("button", name="Open the lobby now").click()  # (the services' broadcasts need
    console.get_by_role("button", name="Start the game").wait_for()  # a thread without Playwright's loop)
    devices = {}
    for student, size in ((ava, (1366, 768)), (ben, (1024, 768))):
        page = signed_in(live_site, student=student, width=size[0], height=size[1])
        page.goto(f"{live_site}/play/{session.pk}/")
        page.get_by_role("button", name="Join the game").click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices[f"s{student.pk}"] = page
    console.get_by_text("2 students in, 2 connected now").wait_for()
    projector = signed_in(live_site, user=ms_rivera, width=1920, height=1080)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    console.get_by_role("button", name="Start the game").click()
    for page in devices.values():
        page.locator(".wu-board").wait_for()
    table = GameTable.objects.get(session=session)

    def turn(category: str):
        player = _steer(table.pk, category)
        page = devices[player]
        page.get_by_role("button", name=re.compile("Roll the dice")).click()
        page.locator(".wu-question").first.wait_for()
        question = _question(table.pk)
        assert question["category"] == category and question["player"] == player
        return player, page, question

    # Missing Word, Crossword Clues, Multiple Choice: right answers, so the same player rolls again.
    player, page, question = turn("missing_word")
    page.get_by_label("Your answer").fill(question["data"]["answers"][0])
    page.get_by_label("Your answer").press("Enter")
    page.locator(".wu-result-right").wait_for()
    player2, page, question = turn("crossword")
    assert player2 == player
    page.get_by_label("Your answer").fill(question["data"]["answers"][0].upper())
    page.get_by_role("button", name="Send").click()
    page.locator(".wu-result-right").wait_for()
    _same, page, question = turn("multiple_choice")
    page.locator(".wu-mc .wu-option").nth(question["right"][0]).click()
    page.locator(".wu-result-right").wait_for()

    # Spelling: the device plays the server's audio (sentence, then the word); the word is on no screen.
    if not audio.espeak_path():  # CI installs espeak-ng; elsewhere the audio is "generated in advance" here
        for part, text in audio.spoken_parts(_question_for_next_spelling(table.pk, player)).items():
            cached = audio._cache_file(text, part)
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_bytes(silent_wav())
    with page.expect_response(re.compile(r"/games/wordup/audio/\d+/\d+/word/$")) as heard:
        _same, page, question = turn("spelling")
    assert heard.value.status == 200 and heard.value.headers["content-type"] == "audio/wav"
    word, sentence = question["data"]["answers"][0], question["data"]["sentence"]
    page.wait_for_function("() => document.querySelector('.wu-sound-state')?.textContent === ''")
    for screen in [console, projector, *devices.values()]:
        html = screen.locator("[data-tables]").inner_html()
        assert word not in html and sentence not in html and question["data"]["id"] not in html
    shot(page, "live-device-spelling")
    shot(projector, "live-projector-spelling")
    page.get_by_label("Type the word you heard").fill(word)
    page.get_by_role("button", name="Send").click()
    page.locator(".wu-result-right").wait_for()
    assert GameTable.objects.get(pk=table.pk).state["tokens"][player] == {
        "missing_word": 1,
        "crossword": 1,
        "multiple_choice": 1,
        "spelling": 1,
    }

    # A refused answer: the teacher accepts it from the console; the student gets the token.
    _same, page, question = turn("missing_word")
    page.get_by_label("Your answer").fill("zzzz")
    page.get_by_role("button", name="Send").click()
    console.get_by_role("button", name=re.compile("Accept .* answer")).wait_for()
    shot(console, "live-console-reveal")
    console.get_by_role("button", name=re.compile("Accept .* answer")).click()
    page.get_by_text("Accepted by the teacher").wait_for()
    fact = recorded_facts(table).filter(teacher_marked=True).get()  # the worker's job, done here
    assert fact.correct is True and fact.response == "zzzz"
    assert GameTable.objects.get(pk=table.pk).state["tokens"][player]["missing_word"] == 2
    for screen in [console, projector, *devices.values()]:
        assert screen.errors == []


def _question_for_next_spelling(table_id: int, player: str) -> dict:
    """The Spelling question ``player`` will be asked next (their sheet, in bank order)."""
    from games.engine.wordup.questions import SHEET_SIZE
    from games.models import GameTable

    state = GameTable.objects.get(pk=table_id).state
    sheet = state["sheets"][player]
    source = state["sources"][str(sheet["level"])]["spelling"]
    items = state["bank"][str(source)]["spelling"]
    used = sheet["used"]["spelling"]
    number = sheet["sheet"] + 1 if used >= SHEET_SIZE else sheet["sheet"]
    position = SHEET_SIZE * number + (0 if used >= SHEET_SIZE else used)
    return items[position % len(items)]
