"""Line-it's game screen (static/js/games/lineit/*.js) in a real browser.

Each "device" is a page holding only the module, its CSS and a stand-in for the page controller (the ``ctx``
of docs/frontend.md), while the rules run in this process through the real engine: the test takes each
action the page sends, applies it, acknowledges or refuses it with the engine's reason, and redraws every
device with its own view. So a round at a table of three is played by tapping, dragging and the keyboard,
deterministically and with no server; the teacher's console and the projector watch.
"""

from __future__ import annotations

import json

import pytest

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineit import LineIt, rules
from tests.browser.harness import in_time, open_device
from tests.loading import engine_module

pytestmark = [pytest.mark.browser]

GAME = LineIt()


S = engine_module("test_lineit_support")


class Bench:
    """One Line-it table played through the engine, shown on several pages (devices)."""

    def __init__(self, new_page, state, now=100.0):
        self.new_page = new_page
        self.state = state
        self.now = now
        self.seq = 1
        self.status = "playing"
        self.pages: dict[str, tuple] = {}
        self.refusals: list[IllegalAction] = []

    def device(self, name, role, player=None, compact=False, width=1366, height=768):
        page = open_device(self.new_page, "lineit", role, player, compact, width=width, height=height)
        assert page.evaluate("window.gameName") == "lineit"
        viewer = {"role": "player", "player": player} if role == "player" else {"role": role}
        if role == "replay":
            viewer = {"role": "teacher"}
        self.pages[name] = (page, viewer)
        self.draw(name)
        return page

    def message(self, viewer):
        return {
            "table": 7,
            "number": 1,
            "seq": self.seq,
            "status": self.status,
            "view": json.loads(json.dumps(GAME.view(self.state, viewer))),
        }

    def draw(self, name):
        page, viewer = self.pages[name]
        page.evaluate("t => window.draw(t)", self.message(viewer))

    def draw_all(self):
        for name in self.pages:
            self.draw(name)

    def pump(self, name):
        """Apply what the device sent: acknowledge (and redraw everyone) or refuse with the reason."""
        page, viewer = self.pages[name]
        sent = page.evaluate("window.takeOutbox()")
        assert sent, f"{name} sent nothing"
        for item in sent:
            self.now = in_time(self.state, self.now + 1)
            try:
                self.state, _events = GAME.apply(self.state, viewer["player"], item["action"], self.now)
            except IllegalAction as error:
                self.refusals.append(error)
                page.evaluate("([id, m]) => window.settle(id, false, m)", [item["id"], str(error)])
            else:
                self.seq += 1
                self.draw_all()
                page.evaluate("([id, s]) => window.settle(id, true, '', s)", [item["id"], self.seq])
        return sent

    def turn(self):
        return GAME.current_players(self.state)[0]

    def check_clean(self):
        for name, (page, _viewer) in self.pages.items():
            assert page.evaluate("window.errors") == [], f"script errors on {name}"


def drag(page, source, target):
    """A pointer drag (mouse here; the module handles touch and pen the same way)."""
    box = source.bounding_box()
    goal = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 12, box["y"] + box["height"] / 2 + 12, steps=3)
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=6)
    page.mouse.up()


def market_button(page, index):
    return page.locator(".lineit-market button.lineit-card").nth(index)


def three_players():
    seats = [{"id": "ava", "name": "Ava"}, {"id": "ben", "name": "Ben"}, {"id": "cleo", "name": "Cleo"}]
    return GAME.setup(
        {**GAME.default_config, "players": seats, "level": 4, "turn_seconds": 30}, "browser-seed"
    )


def test_a_round_at_a_table_of_three_by_tap_drag_and_keyboard_with_the_teacher_and_projector_watching(
    new_page,
):
    bench = Bench(new_page, three_players())
    ava = bench.device("ava", "player", "ava")
    ben = bench.device("ben", "player", "ben", width=1024, height=768)  # a tablet
    cleo = bench.device("cleo", "player", "cleo")
    teacher = bench.device("teacher", "teacher", compact=True, width=700, height=500)
    projector = bench.device("projector", "projector")
    assert bench.turn() == "ava"
    ava.get_by_text("Your turn", exact=True).wait_for()
    ben.get_by_text("Ava's turn").wait_for()
    assert ava.locator(".lineit-market button.lineit-card").count() == 5
    assert ben.locator(".lineit-market button.lineit-card").count() == 0, "only the player in turn may pick"
    assert ava.evaluate("window.announced").pop().startswith("Your turn.")

    # Ava taps a card, then "In my line" (any card starts an empty line).
    first = bench.state["market"][0]
    market_button(ava, 0).click()
    assert market_button(ava, 0).get_attribute("aria-pressed") == "true"
    ava.get_by_role("button", name="In my line").click()
    assert bench.pump("ava")[0]["action"] == {"type": "take", "card": first, "to": "line"}
    assert bench.state["lines"]["ava"]["cards"] == [first]
    ava.get_by_role("button", name="End my turn").click()
    bench.pump("ava")
    assert bench.turn() == "ben"

    # Ben (tablet) drags a market card onto his hand.
    ben.get_by_text("Your turn", exact=True).wait_for()
    card = bench.state["market"][1]
    drag(ben, market_button(ben, 1), ben.locator(".lineit-hand"))
    assert bench.pump("ben")[0]["action"] == {"type": "take", "card": card, "to": "hand"}
    assert bench.state["hands"]["ben"] == [card]
    assert ben.locator(".lineit-hand .lineit-card").count() == 1
    # Nobody else sees which card: only that Ben holds one.
    for name in ("ava", "cleo", "teacher", "projector"):
        page = bench.pages[name][0]
        assert page.locator(f"[data-card='{card}']").count() == 0
        assert card not in page.content()
    ava.get_by_text("Ben took a card into their hand.").wait_for()
    ben.keyboard.press("e")  # end the turn from the keyboard
    bench.pump("ben")

    # Cleo plays by keyboard only: 1 picks the first market card, L puts it in her line, E ends her turn.
    cleo.get_by_text("Your turn", exact=True).wait_for()
    cleo.locator(".lineit-market button.lineit-card").first.focus()
    card = bench.state["market"][0]
    cleo.keyboard.press("1")
    cleo.keyboard.press("l")
    assert bench.pump("cleo")[0]["action"] == {"type": "take", "card": card, "to": "line"}
    cleo.keyboard.press("e")
    bench.pump("cleo")

    # Round 2: the two cards nobody took went under their jackpots, a fresh market is out, Ben picks first.
    assert bench.state["round"] == 2 and bench.turn() == "ben"
    buried = sum(len(cards) for cards in bench.state["jackpots"].values())
    assert buried == 2 - sum(1 for c in bench.state["discard"])
    for name in ("ava", "ben", "cleo"):
        page = bench.pages[name][0]
        page.get_by_text("Round 2", exact=False).first.wait_for()
        assert page.locator(".lineit-jackpots .lineit-card").count() == buried
    ben.get_by_text("Your turn", exact=True).wait_for()
    assert "Round 2" in teacher.locator(".lineit-compact__status").inner_text()
    assert teacher.locator(".lineit-compact__table tbody tr").count() == 3
    assert projector.locator(".lineit-proj__player").count() == 3
    assert projector.locator(".lineit-proj__jackpot").count() == 4
    assert teacher.locator(".lineit-card").count() == 0, "the console stays compact"
    bench.check_clean()


def _scenario(new_page, *, hands=None, lines=None, market=None, step="take", played=False, **devices):
    state = S.arrange(S.table(2), market=market, hands=hands, lines=lines)
    state["turn"]["step"] = step
    state["turn"]["played"] = played
    bench = Bench(new_page, state)
    for name, (role, player) in devices.items():
        bench.device(name, role, player)
    return bench


def test_a_card_that_breaks_the_line_is_refused_with_the_reason_and_the_pick_is_kept(new_page):
    n = S.n
    bench = _scenario(
        new_page,
        market=[n(30), n(70), n(90), n(10)],
        lines={"p1": [n(40), n(55)]},
        ava=("player", "p1"),
    )
    page = bench.pages["ava"][0]
    page.get_by_text("Next card must be higher than 55.").wait_for()
    page.get_by_role("button", name="30, ", exact=False).click()
    page.get_by_role("button", name="In my line").click()
    bench.pump("ava")
    assert bench.refusals[-1].code == "breaks_line"
    page.locator(".lineit-error", has_text="30 is less than 55: this line goes up").wait_for()
    assert page.evaluate("window.announced").pop() == "30 is less than 55: this line goes up"
    assert market_button(page, 0).get_attribute("aria-pressed") == "true", "the pick is kept"
    # While the teacher has paused the session, no move can be made (the server would refuse it anyway).
    page.evaluate("window.ctx.session.status = 'paused'")
    bench.draw("ava")
    page.get_by_text("The game is paused. Wait for your teacher.").wait_for()
    assert page.locator(".lineit-market button").count() == 0
    page.evaluate("window.ctx.session.status = 'running'")
    bench.draw("ava")
    page.get_by_role("button", name="30, ", exact=False).click()
    page.get_by_role("button", name="In my hand").click()
    bench.pump("ava")
    assert bench.state["hands"]["p1"] == [n(30)]
    assert page.locator(".lineit-error").count() == 0
    bench.check_clean()


def test_a_full_hand_offers_a_new_line_and_dragging_there_scores_the_line(new_page):
    n = S.n
    bench = _scenario(
        new_page,
        market=[n(20), n(60), n(61), n(62)],
        hands={"p1": [n(5), n(6)]},
        lines={"p1": [n(30), n(40), n(50), n(55), n(58)]},
        ava=("player", "p1"),
        ben=("player", "p2"),
    )
    page = bench.pages["ava"][0]
    assert page.get_by_role("button", name="In my hand (full)").is_disabled()
    zone = page.locator("[data-drop='new_line']")
    zone.wait_for()
    drag(page, market_button(page, 0), zone)
    assert bench.pump("ava")[0]["action"] == {"type": "take", "card": n(20), "to": "new_line"}
    assert bench.state["piles"]["p1"] == [n(55), n(58)] and bench.state["lines"]["p1"]["cards"] == [n(20)]
    page.get_by_text("you scored your line to start a new one", exact=False).wait_for()
    ben = bench.pages["ben"][0]
    ben.get_by_text("Ava scored their line: 2 cards banked.").wait_for()
    scored = ben.locator(".lineit-scored").first
    assert scored.locator(".lineit-card").count() == 5
    assert scored.locator(".lineit-card.is-discarded").count() == 3
    bench.check_clean()


def test_after_the_draft_a_hand_card_is_played_by_drag_then_the_line_is_scored(new_page):
    n = S.n
    bench = _scenario(
        new_page,
        market=[n(2), n(3), n(4)],
        hands={"p1": [n(45), n(80)]},
        lines={"p1": [n(10), n(20), n(30), n(40)]},
        step="after",
        ava=("player", "p1"),
    )
    page = bench.pages["ava"][0]
    page.get_by_text("You may play one card from your hand into your line", exact=False).wait_for()
    page.get_by_text("Scoring now banks 1 card.").wait_for()  # 10, 20, 30 are thrown away, 40 is banked
    assert page.get_by_role("button", name="Play it into my line").is_disabled()
    drag(page, page.locator(".lineit-hand button.lineit-card").first, page.locator(".lineit-mine"))
    assert bench.pump("ava")[0]["action"] == {"type": "play", "card": n(45)}
    page.get_by_text("Scoring now banks 2 cards.").wait_for()
    assert page.locator(".lineit-hand button.lineit-card").count() == 0, "one hand card per turn"
    page.get_by_role("button", name="Score my line (ends your turn)").click()
    bench.pump("ava")
    assert bench.state["piles"]["p1"] == [n(40), n(45)]
    assert bench.turn() == "p2"
    page.get_by_text("Ben is playing. Wait for your turn.").wait_for()
    bench.check_clean()


def test_a_line_with_a_bet_shows_its_progress_and_what_scoring_now_would_give(new_page):
    n = S.n
    bench = _scenario(
        new_page,
        market=[n(2), n(3), n(4), n(5)],
        lines={"p1": [n(10), S.BET3, n(20), n(30)], "p2": [S.BET5, n(60)]},
        ava=("player", "p1"),
    )
    page = bench.pages["ava"][0]
    page.locator(".lineit-mine").get_by_text("Bet +3: 2 of 3 number cards after it").wait_for()
    page.get_by_text("Scoring now banks 0 cards and loses the bet (\u22123).").wait_for()
    page.locator(".lineit-others").get_by_text("Bet +5: 1 of 5 number cards after it").wait_for()
    assert page.get_by_role("button", name="Bet +3 card").count() == 0, "a Bet in a line is not a button"
    market_button(page, 2).click()  # 4 does not fit a line going up from 30: the server says why
    page.keyboard.press("l")
    bench.pump("ava")
    page.locator(".lineit-error", has_text="4 is less than 30: this line goes up").wait_for()
    bench.check_clean()


def test_the_game_over_screen_ranks_the_players_and_reveals_values(new_page):
    config = S.config(3, 5, bots=("medium", "medium", "medium"), card_ids="shuffled")
    final, _log, _events = core.play_with_bots(GAME, config, "over-seed")
    bench = Bench(new_page, final)
    bench.status = "finished"
    page = bench.device("ava", "player", "p1")
    projector = bench.device("projector", "projector")
    outcome = GAME.outcome(final)
    best = max(outcome["scores"].values())
    headline = page.locator(".lineit-outcome h3").inner_text()
    if "p1" in outcome["winners"]:
        assert headline in ("You win!", "You share the win!")
    else:
        assert headline == "Game over: well played!"
    rows = page.locator(".lineit-scores tbody tr")
    assert rows.count() == 3
    assert rows.first.locator(".lineit-scores__total").inner_text() == str(best)
    assert projector.locator(".lineit-outcome--big").count() == 1
    assert page.locator(".lineit-market").count() == 0
    bench.check_clean()


def test_views_of_other_roles_and_sizes_render_without_secrets(new_page):
    state = three_players()
    for _ in range(20):  # a few turns in, with hands filled
        player = GAME.current_players(state)[0]
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, core.Rng("x")), 1.0)
    bench = Bench(new_page, state)
    replay = bench.device("replay", "replay")
    board = bench.device("board", "teacher")
    phone = bench.device("phone", "player", "ava", width=600, height=900)
    hidden = [c for p in ("ben", "cleo") for c in state["hands"][p]] + state["deck"]
    for page in (replay, board, phone):
        html = page.content()
        assert not any(f'data-card="{c}"' in html for c in hidden)
        assert page.locator(".lineit-jackpots").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            "no sideways scroll"
        )
    assert replay.locator(".lineit-clock").inner_text() == ""
    assert replay.locator("button").count() == 0 and board.locator("button.lineit-card").count() == 0
    names = phone.locator("button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || e.textContent)"
    )
    assert all(name.strip() for name in names), "every button has a name"
    assert rules.market_size(state) == 5
    bench.check_clean()


# ==================================================================================================
# The real pages: a teacher starts Line-it, three students play a round at one table
# ==================================================================================================


@pytest.fixture
def asgi_server(transactional_db):
    """The site with its websocket (config.asgi's routes) served by uvicorn in a thread of this process, so
    it shares the test database and the channel layer; static files served as in development."""
    import socket
    import threading
    import time

    import uvicorn
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from games.realtime.routing import build_websocket_application

    app = ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(get_asgi_application()),
            "websocket": build_websocket_application(URLRouter),
        }
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning", ws="auto")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _session_cookie(base_url, **values):
    from importlib import import_module

    from django.conf import settings

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in values.items():
        store[key] = value
    store.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": base_url}


def _device(new_page, cookie, width=1024, height=768):
    page = new_page(width=width, height=height)
    page.context.add_cookies([cookie])
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def _table_state(session):
    from games.models import GameTable

    return GameTable.objects.get(session=session).state


@pytest.mark.django_db(transaction=True)
def test_live_a_teacher_starts_line_it_and_three_students_play_a_round(
    asgi_server, new_page, class_7b, ms_rivera
):
    from datetime import timedelta

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils import timezone

    from classrooms.middleware import STUDENT_SESSION_KEY
    from games import services
    from tests.factories import enrolled_student

    students = [enrolled_student(class_7b, display_name=name) for name in ("Ava M.", "Ben K.", "Cai L.")]
    session = services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="lineit",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings={"level": "3", "turn_seconds": 120},
    )
    url = asgi_server
    teacher_cookie = _session_cookie(
        url,
        **{
            SESSION_KEY: str(ms_rivera.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: ms_rivera.get_session_auth_hash(),
        },
    )
    console = _device(new_page, teacher_cookie, 1366, 768)
    console.goto(f"{url}/sessions/{session.pk}/")
    console.get_by_role("button", name="Open the lobby now").click()
    console.get_by_role("button", name="Start the game").wait_for()

    devices = {}
    for student in students:
        page = _device(new_page, _session_cookie(url, **{STUDENT_SESSION_KEY: student.pk}))
        page.goto(f"{url}/play/{session.pk}/")
        page.get_by_role("button", name="Join the game").click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices[services.student_player_id(student.pk)] = page
    projector = _device(new_page, teacher_cookie, 1366, 768)
    projector.goto(f"{url}/sessions/{session.pk}/projector/")

    console.get_by_role("button", name="Start the game").click()
    for page in devices.values():
        page.locator(".lineit--player").wait_for()
    state = _table_state(session)
    order = [state["order"][(state["first"] + i) % 3] for i in range(3)]
    first, second, third = (devices[p] for p in order)
    first.get_by_text("Your turn", exact=True).wait_for()
    second.locator(".lineit-status__turn", has_text="'s turn").wait_for()

    # The first player taps a market card, then "In my line", then ends the turn.
    card = state["market"][0]
    first.locator(f".lineit-market button[data-card='{card}']").click()
    first.get_by_role("button", name="In my line").click()
    first.locator(".lineit-mine .lineit-card").first.wait_for()
    first.get_by_role("button", name="End my turn").click()

    # The second drags a card into the hand: nobody else's page ever holds that card.
    second.get_by_text("Your turn", exact=True).wait_for()
    card = _table_state(session)["market"][0]
    drag(second, second.locator(f".lineit-market button[data-card='{card}']"), second.locator(".lineit-hand"))
    second.locator(".lineit-hand .lineit-card").first.wait_for()
    assert _table_state(session)["hands"][order[1]] == [card]
    first.get_by_text("took a card into their hand.").first.wait_for()
    second.keyboard.press("e")

    # The third plays with the keyboard only.
    third.get_by_text("Your turn", exact=True).wait_for()
    third.keyboard.press("1")
    third.keyboard.press("l")
    third.locator(".lineit-mine .lineit-card").first.wait_for()
    third.keyboard.press("e")

    # Round 2 everywhere; the teacher's console and the projector follow.
    second.get_by_text("Your turn", exact=True).wait_for()
    state = _table_state(session)
    assert state["round"] == 2 and state["turn"]["player"] == order[1]
    for page in (*devices.values(), projector):
        page.locator(".lineit").get_by_text("Round 2").first.wait_for()
    console.locator(".lineit-compact__table tbody tr").nth(2).wait_for()
    assert projector.locator(".lineit-proj__player").count() == 3
    hand_card = state["hands"][order[1]][0]
    for page in (first, third, console, projector):
        assert hand_card not in page.content()
    for page in (*devices.values(), console, projector):
        assert page.errors == []
