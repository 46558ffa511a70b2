"""Line Up!'s game screen (static/js/games/lineup/) in a real browser.

The first tests drive the module directly: each "device" is a page holding only the module, its CSS and a
stand-in for the page controller (the ``ctx`` of docs/frontend.md), while the rules run in this process
through the real engine. So every phase, role and control is exercised deterministically, with no server:
students drag, tap and use the keyboard; the captain locks in; the projector and the teacher watch.
"""

from __future__ import annotations

import itertools
import json
import re
from datetime import timedelta

import pytest

from games.engine.core import IllegalAction
from games.engine.lineup import right_count
from tests.browser.harness import MORPH_JS, ROOT, in_time, open_device
from tests.loading import engine_module

pytestmark = [pytest.mark.browser]


h = engine_module("test_lineup_helpers")
GAME = h.GAME


class Bench:
    """One table of Line Up! played through the engine, shown on several pages (devices)."""

    def __init__(self, new_page, state, now=100.0):
        self.new_page = new_page
        self.state = state
        self.now = now
        self.seq = 1
        self.status = "playing"
        self.pages: dict[str, tuple] = {}

    def device(self, name, role, player=None, compact=False, width=1366, height=768):
        page = open_device(self.new_page, "lineup", role, player, compact, width=width, height=height)
        viewer = {"role": "player", "player": player} if role == "player" else {"role": "teacher"}
        if role == "projector":
            viewer = {"role": "projector"}
        self.pages[name] = (page, viewer, player)
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
        """Render the current view on one device; returns the text it shows."""
        page, viewer, _player = self.pages[name]
        return page.evaluate("t => { window.draw(t); return root.innerText; }", self.message(viewer))

    def draw_all(self):
        return {name: self.draw(name) for name in self.pages}

    def pump(self):
        """Apply every action the devices sent, in order, until none is left; redraw after each change."""
        for _round in range(60):
            sent = False
            for page, _viewer, player in self.pages.values():
                for item in page.evaluate("window.takeOutbox()"):
                    sent = True
                    self.now = in_time(self.state, self.now + 0.5)
                    try:
                        self.state, _events = GAME.apply(self.state, player, item["action"], self.now)
                    except IllegalAction as illegal:
                        message = illegal.message % illegal.params if illegal.params else illegal.message
                        page.evaluate("a => window.settle(...a)", [item["id"], False, message, self.seq])
                        continue
                    self.seq += 1
                    self.status = "finished" if GAME.is_over(self.state) else "playing"
                    self.draw_all()
                    page.evaluate("a => window.settle(...a)", [item["id"], True, "", self.seq])
            if not sent:
                # A device spacing its rack messages out sends the next one in a moment.
                # One look per page at both its outbox and its timer, so a send between them is not missed.
                busy = "() => window.outbox.length > 0 || !!document.querySelector('[data-rack-waiting]')"
                if not any(page.evaluate(busy) for page, _viewer, _player in self.pages.values()):
                    return
                next(iter(self.pages.values()))[0].wait_for_timeout(150)
        raise AssertionError("the devices never stopped sending")

    def deadline(self):
        self.now += 1
        self.state, _events = GAME.on_deadline(self.state, self.state["clock"]["deadline"] or self.now)
        self.seq += 1
        self.status = "finished" if GAME.is_over(self.state) else "playing"
        self.draw_all()

    def rack(self, team):
        return self.state["q"]["rack"][team]

    def answer(self):
        return h.answer_of(self.state)


def rack_order(page):
    return page.locator("[data-rack] [data-card]").evaluate_all("els => els.map(e => +e.dataset.card)")


def secrets_of(state) -> list[str]:
    """Texts that must not be on any screen before the question's reveal."""
    question = h.current_question(state)
    out = [question["explanation"], question["source"]]
    out += [item["display"] for item in question["items"]]
    return out


def assert_no_errors(*pages):
    for page in pages:
        assert page.evaluate("window.errors") == []


# ==================================================================================================
# Purple: two teams of two, every way of moving a card, the captain locks in, the reveal
# ==================================================================================================


def test_purple_round_two_teams_of_two_drag_tap_keys_lock_and_reveal(new_page):
    bench = Bench(new_page, h.new_game())
    ava = bench.device("ava", "player", "ava")
    ben = bench.device("ben", "player", "ben", width=1024, height=768)
    cai = bench.device("cai", "player", "cai", width=800, height=1280)
    dee = bench.device("dee", "player", "dee", width=390, height=844)
    projector = bench.device("projector", "projector")
    teacher = bench.device("teacher", "teacher", compact=True)
    answer = bench.answer()  # the rulebook's example: 2, 5, 3, 1, 4
    assert answer == h.RULEBOOK_ANSWER

    root = ava.locator("[data-phase]")
    assert root.get_attribute("data-phase") == "answer" and root.get_attribute("data-mini") == "purple"
    assert rack_order(ava) == [1, 2, 3, 4, 5]
    assert ava.get_by_text("You are the captain").is_visible()
    assert ben.get_by_text("Only your captain, Ava, can lock it in.").is_visible()
    assert ben.locator("[data-action=confirm]").count() == 0

    # Ben taps card 2 then card 1: they swap (on every blue device).
    ben.locator("[data-rack] [data-card='2']").click()
    assert ben.locator("[data-rack] [data-card='2']").get_attribute("aria-pressed") == "true"
    ben.locator("[data-rack] [data-card='1']").click()
    bench.pump()
    assert bench.rack("blue") == [2, 1, 3, 4, 5]
    assert rack_order(ava) == [2, 1, 3, 4, 5]
    assert "Ben moved the cards: 2, 1, 3, 4, 5." in ava.evaluate("window.announced")

    # Ava drags card 5 onto place 2 (a pointer drag: card 5 is inserted there).
    source = ava.locator("[data-rack] [data-card='5']").bounding_box()
    target = ava.locator("[data-slot='2']").bounding_box()
    ava.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    ava.mouse.down()
    ava.mouse.move(source["x"] - 40, source["y"] + 20, steps=4)
    ava.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=6)
    ava.mouse.up()
    bench.pump()
    assert bench.rack("blue") == [2, 5, 1, 3, 4]

    # Ben uses the keyboard: focus card 3, ArrowLeft moves it one place left; focus stays on card 3.
    ben.locator("[data-rack] [data-card='3']").focus()
    ben.keyboard.press("ArrowLeft")
    bench.pump()
    assert bench.rack("blue") == [2, 5, 3, 1, 4]
    assert ben.evaluate("document.activeElement.dataset.card") == "3"
    # ... and the digit keys send a card straight to a place; Home/End to the ends.
    ben.keyboard.press("5")
    bench.pump()
    assert bench.rack("blue") == [2, 5, 1, 4, 3]
    ben.keyboard.press("Home")
    bench.pump()
    assert bench.rack("blue") == [3, 2, 5, 1, 4]
    ben.keyboard.press("3")
    bench.pump()
    assert bench.rack("blue") == [2, 5, 3, 1, 4]
    # Enter picks a card up, Enter on another swaps them; the swap is undone the same way.
    ben.keyboard.press("Enter")
    ben.locator("[data-rack] [data-card='1']").focus()
    ben.keyboard.press("Enter")
    bench.pump()
    assert bench.rack("blue") == [2, 5, 1, 3, 4]

    # Yellow's devices never show blue's rack, and the projector shows no rack and no secret.
    assert rack_order(cai) == [1, 2, 3, 4, 5]
    assert projector.locator("[data-rack], [data-rack-readonly]").count() == 0
    for secret in secrets_of(bench.state):
        for page in (ava, ben, cai, dee, projector, teacher):
            assert secret not in page.locator("body").inner_text()
    # The teacher's console shows both racks and who moved them.
    blue_detail = teacher.locator("[data-team-detail=blue]")
    assert "by Ben" in blue_detail.inner_text() or "by Ava" in blue_detail.inner_text()

    # Only the captain can lock in; blue locks in 2, 5, 1, 3, 4 (the rulebook's example: 3 right).
    ava.locator("[data-action=confirm]").click()
    bench.pump()
    assert ava.get_by_text("Your answer is locked in.").is_visible()
    assert "✓ locked in" in projector.locator("[data-team=blue]").inner_text()

    # Yellow: Dee (phone width, stacked rack) swaps 1 and 2; Cai is captain and locks in.
    first, second = (dee.locator(f"[data-slot='{n}']").bounding_box() for n in (1, 2))
    assert first["y"] < second["y"]
    dee.locator("[data-rack] [data-card='1']").click()
    dee.locator("[data-rack] [data-card='2']").click()
    bench.pump()
    cai.locator("[data-action=confirm]").click()
    bench.pump()

    # The reveal: everyone sees the right order, the data, the explanation and the source.
    assert bench.state["phase"] == "reveal"
    question = h.current_question(bench.state)
    for page in (ava, cai, projector):
        text = page.locator("body").inner_text()
        assert question["explanation"] in text
        assert question["items"][1]["display"] in text
    assert ava.get_by_text("3 cards in the right place.").first.is_visible()
    assert "Blue team moves 3 spaces" in projector.locator(".lu-moves").inner_text()
    assert bench.state["teams"]["blue"]["pos"] == 3
    assert_no_errors(ava, ben, cai, dee, projector, teacher)


# ==================================================================================================
# Orange and pink: pickers, proposals, the captain's lock-in, equal bids, the face-up rack
# ==================================================================================================


def test_orange_predictions_are_proposed_locked_and_shown_together(new_page):
    bench = Bench(new_page, h.fresh(blue=9, yellow=2))
    assert bench.state["phase"] == "predict"
    ava = bench.device("ava", "player", "ava")
    ben = bench.device("ben", "player", "ben")
    cai = bench.device("cai", "player", "cai")
    projector = bench.device("projector", "projector")
    blue_captain = h.captain(bench.state, "blue")
    captain_page, other_page = (ava, ben) if blue_captain == "ava" else (ben, ava)
    yellow_captain_page = cai if h.captain(bench.state, "yellow") == "cai" else None

    other_page.locator("[data-picker] [data-value='3']").click()
    bench.pump()
    assert captain_page.get_by_text(re.compile(r"Team choice: 3 \(suggested by")).is_visible()
    assert captain_page.locator("[data-picker] [data-value='3']").get_attribute("aria-pressed") == "true"
    # Yellow and the projector do not see blue's proposal.
    assert "Team choice" not in cai.locator("body").inner_text()
    assert "suggested" not in projector.locator("body").inner_text()
    captain_page.locator("[data-picker] [data-value='2']").click()
    bench.pump()
    captain_page.locator("[data-action=confirm]").click()
    bench.pump()
    assert captain_page.get_by_text("Your prediction is locked in: 2.").is_visible()
    assert "predicted" not in cai.locator("body").inner_text()  # yellow's screen: nothing of blue's yet

    if yellow_captain_page is None:
        bench.device("dee", "player", "dee")
        yellow_captain_page = bench.pages["dee"][0]
    yellow_captain_page.locator("[data-picker] [data-value='5']").click()
    bench.pump()
    yellow_captain_page.locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["phase"] == "answer"
    text = projector.locator("body").inner_text()
    assert "Blue team predicted 2" in text and "Yellow team predicted 5" in text
    assert "Yellow team predicted 5" in ava.locator("body").inner_text()
    assert_no_errors(ava, ben, cai, projector)


def test_a_big_teams_captain_sees_the_tally_of_suggestions_not_forty_names(new_page):
    crowd = [{"id": f"p{i}", "name": f"Student {i}", "team": ("blue", "yellow")[i % 2]} for i in range(40)]
    bench = Bench(new_page, h.fresh(blue=9, players=crowd))
    assert bench.state["phase"] == "predict"
    for i, value in zip(range(0, 40, 2), [1, 2, 3, 5] * 5, strict=True):
        bench.state = h.act(bench.state, f"p{i}", {"type": "predict", "value": value})
    captain = h.captain(bench.state, "blue")
    page = bench.device("captain", "player", captain)
    suggestions = page.get_by_role("list", name="Your team's suggestions").inner_text()
    assert "5 suggestions" in suggestions and "Student" not in suggestions
    assert page.get_by_text(re.compile(r"Team choice: \d \(suggested by Student \d+\)")).is_visible()
    teacher_text = bench.device("teacher", "teacher").locator("body").inner_text()
    assert "Student 38" in teacher_text  # the console still lists who suggested what
    assert_no_errors(page)


def test_pink_equal_bids_bid_again_then_the_bidder_answers_face_up(new_page):
    bench = Bench(new_page, h.fresh(blue=17, yellow=12))
    assert bench.state["phase"] == "bid" and bench.state["q"]["mini"] == "pink"
    pages = {p: bench.device(p, "player", p) for p in ("ava", "ben", "cai", "dee")}
    projector = bench.device("projector", "projector")
    cap = {team: pages[h.captain(bench.state, team)] for team in ("blue", "yellow")}

    for team in ("blue", "yellow"):
        cap[team].locator("[data-picker] [data-value='2']").click()
        bench.pump()
        cap[team].locator("[data-action=confirm]").click()
        bench.pump()
    assert bench.state["phase"] == "bid"
    cap = {team: pages[h.captain(bench.state, team)] for team in ("blue", "yellow")}
    assert cap["blue"].get_by_text("Both teams bid 2: bid again!").is_visible()
    assert projector.get_by_text("Both teams bid 2: bid again!").is_visible()

    cap["blue"].locator("[data-picker] [data-value='3']").click()
    bench.pump()
    cap["blue"].locator("[data-action=confirm]").click()
    cap["yellow"].locator("[data-picker] [data-value='1']").click()
    bench.pump()
    cap["yellow"].locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["phase"] == "answer" and bench.state["q"]["bidder"] == "blue"

    # Blue moves a card; yellow's devices and the projector watch blue's rack face up.
    cap["blue"].locator("[data-rack] [data-card='4']").focus()
    cap["blue"].keyboard.press("Home")
    bench.pump()
    assert bench.rack("blue") == [4, 1, 2, 3, 5]
    for page in (pages["cai"], pages["dee"], projector):
        shown = page.locator("[data-rack-readonly] [data-card]")
        watched = shown.evaluate_all("e => e.map(x => +x.dataset.card)")
        assert watched == [4, 1, 2, 3, 5]
        assert page.locator("[data-rack]").count() == 0
    assert "Blue team bid 3 and answers face up" in pages["cai"].locator("body").inner_text()

    # Blue gets it all right: it moves its bid.
    answer = bench.answer()
    for position, card in enumerate(answer):
        cap["blue"].locator(f"[data-rack] [data-card='{card}']").focus()
        cap["blue"].keyboard.press(str(position + 1))
        bench.pump()
    assert bench.rack("blue") == answer
    cap["blue"].locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["teams"]["blue"]["pos"] == 20
    assert "Bid 3: made it" in projector.locator("body").inner_text()
    assert_no_errors(*pages.values(), projector)


# ==================================================================================================
# Star turns: lay a card, go on, stop; a mistake moves the other team
# ==================================================================================================


def _star_bench(new_page):
    state = h.fresh(blue=3, yellow=0)
    answer = h.answer_of(state)
    state = h.lock(state, "blue", h.order_with(answer, 1))  # one right: blue lands on the star at 4
    state = h.lock(state, "yellow", h.order_with(answer, 0))
    state = h.end_reveal(state)
    assert state["phase"] == "star" and state["q"]["star"]["team"] == "blue"
    return Bench(new_page, state)


def test_star_turn_lay_right_then_stop(new_page):
    bench = _star_bench(new_page)
    pages = {p: bench.device(p, "player", p) for p in ("ava", "ben", "cai")}
    projector = bench.device("projector", "projector")
    captain = pages[h.captain(bench.state, "blue")]
    mate = pages["ben" if h.captain(bench.state, "blue") == "ava" else "ava"]
    answer = bench.answer()

    assert captain.locator("[data-action=stop]").is_disabled()  # lay a card first
    # A teammate proposes the card for place 1; the captain lays it.
    mate.locator(f"[data-star-hand] [data-card='{answer[0]}']").click()
    mate.locator("[data-star-places] [data-place='1']").click()
    bench.pump()
    assert captain.get_by_text(re.compile(rf"Team choice: card {answer[0]} in place 1")).is_visible()
    assert "Team choice" not in pages["cai"].locator("body").inner_text()
    captain.locator("[data-action=confirm]").click()
    bench.pump()
    assert [c["right"] for c in bench.state["q"]["star"]["laid"]] == [True]
    assert "✓ right" in projector.locator("[data-star-places]").inner_text()
    assert captain.locator(f"[data-star-hand] [data-card='{answer[0]}']").count() == 0

    # Stop: blue moves one space for its one card.
    captain.locator("[data-action=stop]").click()
    bench.pump()
    assert "Stop and move 1" in captain.locator("[data-action=confirm]").inner_text()
    captain.locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["teams"]["blue"]["pos"] == 5
    assert bench.state["phase"] == "reveal"
    assert "1 star card right." in projector.locator("body").inner_text()
    assert_no_errors(*pages.values(), projector)


def test_star_turn_mistake_moves_the_other_team(new_page):
    bench = _star_bench(new_page)
    captain_id = h.captain(bench.state, "blue")
    captain = bench.device(captain_id, "player", captain_id)
    cai = bench.device("cai", "player", "cai")
    answer = bench.answer()
    wrong = next(c for c in (1, 2, 3, 4, 5) if c != answer[2])
    # The place first, then the card, works too.
    captain.locator("[data-star-places] [data-place='3']").click()
    assert captain.locator("[data-star-places] [data-place='3']").get_attribute("aria-pressed") == "true"
    assert captain.evaluate("window.outbox.length") == 0
    captain.locator(f"[data-star-hand] [data-card='{wrong}']").click()
    bench.pump()
    assert bench.state["q"]["star"]["proposal"]["position"] == 3
    captain.locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["teams"]["yellow"]["pos"] == 1
    assert "✗ wrong" in cai.locator("body").inner_text()
    assert_no_errors(captain, cai)


# ==================================================================================================
# The 5-space: how many are wrong, one rearrangement, the winner screen
# ==================================================================================================


def test_final_space_rearrange_once_and_win(new_page):
    state = h.fresh(blue=25, yellow=5)
    assert state["phase"] == "final" and state["q"]["answering"] == ["blue"]
    bench = Bench(new_page, state)
    captain_id = h.captain(bench.state, "blue")
    captain = bench.device(captain_id, "player", captain_id)
    cai = bench.device("cai", "player", "cai")
    projector = bench.device("projector", "projector")
    answer = bench.answer()
    assert "If they miss, your team moves 5!" in cai.locator("body").inner_text()

    first = h.order_with(answer, 2)
    for position, card in enumerate(first):
        captain.locator(f"[data-rack] [data-card='{card}']").focus()
        captain.keyboard.press(str(position + 1))
        bench.pump()
    assert captain.locator("[data-action=confirm]").inner_text().strip().endswith("Check our answer")
    captain.locator("[data-action=confirm]").click()
    bench.pump()
    assert captain.get_by_text("3 cards are wrong. Move cards once more, then lock in.").is_visible()
    assert "First try: 3 cards wrong." in projector.locator("body").inner_text()

    for position, card in enumerate(answer):
        captain.locator(f"[data-rack] [data-card='{card}']").focus()
        captain.keyboard.press(str(position + 1))
        bench.pump()
    captain.locator("[data-action=confirm]").click()
    bench.pump()
    assert bench.state["winner"] == "blue" and bench.status == "finished"
    assert projector.get_by_role("heading", name="Blue team wins!").is_visible()
    assert captain.get_by_text("Well done, your team got all five right on the 5-space!").is_visible()
    assert cai.get_by_text("Good game!", exact=False).is_visible()
    assert h.current_question(bench.state)["explanation"] in projector.locator("body").inner_text()
    assert_no_errors(captain, cai, projector)


# ==================================================================================================
# Refusals are shown; renders keep what the student was doing
# ==================================================================================================


def test_a_refused_action_is_shown_and_the_screen_recovers(new_page):
    bench = Bench(new_page, h.new_game())
    ava = bench.device("ava", "player", "ava")
    ava.locator("[data-rack] [data-card='1']").click()
    ava.locator("[data-rack] [data-card='2']").click()
    # The rules refuse this one (the deadline fired meanwhile: the answer is already locked).
    bench.deadline()
    bench.pump()
    assert ava.locator(".lu-error").inner_text().strip() != ""
    assert bench.state["phase"] == "reveal"
    assert_no_errors(ava)


def test_a_picked_up_card_survives_a_teammates_move(new_page):
    bench = Bench(new_page, h.new_game())
    ava = bench.device("ava", "player", "ava")
    ben = bench.device("ben", "player", "ben")
    ava.locator("[data-rack] [data-card='5']").click()  # picked up, nothing sent yet
    ben.locator("[data-rack] [data-card='3']").focus()
    ben.keyboard.press("End")
    bench.pump()
    assert rack_order(ava) == [1, 2, 4, 5, 3]
    assert ava.locator("[data-rack] [data-card='5']").get_attribute("aria-pressed") == "true"
    ava.locator("[data-rack] [data-card='1']").click()
    bench.pump()
    assert bench.rack("blue") == [5, 2, 4, 1, 3]


def test_quick_moves_are_coalesced_and_spaced_out_for_the_rate_limit(new_page):
    bench = Bench(new_page, h.new_game())
    ava = bench.device("ava", "player", "ava")
    ava.locator("[data-rack] [data-card='1']").focus()
    for _ in range(4):
        ava.keyboard.press("ArrowRight")  # four moves before the first is acknowledged
    assert rack_order(ava) == [2, 3, 4, 5, 1]  # the screen follows every key at once
    bench.pump()
    assert bench.rack("blue") == [2, 3, 4, 5, 1]
    sent = ava.evaluate("window.sent")
    assert 1 <= len(sent) <= 2 and sent[-1]["action"]["order"] == [2, 3, 4, 5, 1]
    gaps = [b["at"] - a["at"] for a, b in itertools.pairwise(sent)]
    assert all(gap >= 120 for gap in gaps)
    assert ava.evaluate("document.activeElement.dataset.card") == "1"


# ==================================================================================================
# Every role renders every phase of whole bot games without an error and without a secret
# ==================================================================================================


def test_every_role_renders_whole_bot_games_without_errors_or_secrets(new_page):
    from games.engine.core import Rng

    players = [{**p, "bot": "medium"} for p in h.TWO_V_TWO]
    bench = Bench(new_page, h.new_game(players=players, board="short"))
    page = bench.device("ava", "player", "ava", width=1024, height=768)
    # Each role on its own root of one page: every state is drawn for all of them in one round trip.
    roles = [
        ("cai", "player", "cai", False, {"role": "player", "player": "cai"}),
        ("projector", "projector", None, False, {"role": "projector"}),
        ("console", "teacher", None, True, {"role": "teacher"}),
        ("replay", "replay", None, False, {"role": "teacher"}),
    ]
    rng = Rng("screen-bots")
    phases = set()
    for _step in range(400):
        state = bench.state
        if GAME.is_over(state):
            break
        acting = GAME.current_players(state)
        bench.now = in_time(state, bench.now + 1) if acting else bench.now + 1
        if acting:
            player = acting[rng.randint(0, len(acting) - 1)]
            bench.state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), bench.now)
        else:
            bench.state, _events = GAME.on_deadline(state, bench.now + 100)
        bench.seq += 1
        bench.status = "finished" if GAME.is_over(bench.state) else "playing"
        phases.add(bench.state["phase"])
        items = [[r, role, p, compact, bench.message(viewer)] for r, role, p, compact, viewer in roles]
        shown = page.evaluate("items => window.drawMany(items)", items)
        texts = dict(zip([r[0] for r in roles], shown, strict=True))
        texts["ava"] = bench.draw("ava")
        if bench.state["phase"] not in ("reveal", "over"):
            secrets = secrets_of(bench.state)
            for name, text in texts.items():
                for secret in secrets:
                    assert secret not in text, (name, bench.state["phase"], secret)
    assert GAME.is_over(bench.state)
    assert {"answer", "reveal", "over"} <= phases
    assert page.evaluate("window.errors") == []
    assert page.locator("#root [data-role=player]").count() == 1
    assert page.locator("#projector").get_by_role("heading", name=re.compile("wins!")).is_visible()


def test_a_student_not_seated_at_the_table_watches_the_public_screen(new_page):
    bench = Bench(new_page, h.new_game())
    late = bench.device("zed", "player", "zed")
    assert late.get_by_text("You are watching this game.").is_visible()
    assert late.locator("[data-rack], [data-picker], [data-action]").count() == 0
    assert h.current_question(bench.state)["heading"] in late.locator("#root").inner_text()
    assert_no_errors(late)


def test_the_how_to_play_page_has_a_practice_rack_that_scores_the_rulebooks_example(new_page, tmp_path):
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/games/lineup/how-to-play/")
    request.user = AnonymousUser()
    html = render_to_string("games/lineup/how_to_play.html", request=request)
    page_file = tmp_path / "how_to_play.html"
    # The morph library is served from node_modules (config/settings.py's STATICFILES_DIRS).
    html = html.replace('src="/static/vendor/idiomorph/', f'src="{MORPH_JS.parent.as_uri()}/')
    page_file.write_text(html.replace('src="/static/', f'src="{ROOT.as_uri()}/static/'), encoding="utf-8")
    page = new_page(width=1024, height=768)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    try_it = page.locator("[data-lineup-try]")
    try_it.locator("[data-rack] [data-card='1']").wait_for()
    assert not try_it.get_by_role("button", name="Try again").is_visible()
    # 2, 5, 1, 3, 4: the rulebook's example, by keys (card 2 to place 1, then card 5 to place 2).
    try_it.locator("[data-rack] [data-card='2']").focus()
    page.keyboard.press("1")
    try_it.locator("[data-rack] [data-card='5']").focus()
    page.keyboard.press("2")
    order = try_it.locator("[data-rack] [data-card]").evaluate_all("els => els.map(e => +e.dataset.card)")
    assert order == [2, 5, 1, 3, 4]
    try_it.locator("[data-action=confirm]").click()
    try_it.get_by_text("3 cards in the right place.").wait_for()
    assert "142,984 km" in try_it.inner_text() and "NASA" in try_it.inner_text()
    try_it.get_by_role("button", name="Try again").click()
    order = try_it.locator("[data-rack] [data-card]").evaluate_all("els => els.map(e => +e.dataset.card)")
    assert order == [1, 2, 3, 4, 5]
    assert errors == []


# ==================================================================================================
# The real pages: a teacher starts a session, four students play a purple round in two teams of two
# ==================================================================================================


def arrange(page, order):
    """Put the rack in this order with the number keys (card to place), waiting for each move to show."""
    in_place = "([c, n]) => document.querySelectorAll('[data-rack] [data-card]')[n - 1].dataset.card === c"
    for place, card in enumerate(order, start=1):
        page.locator(f"[data-rack] [data-card='{card}']").focus()
        page.keyboard.press(str(place))
        page.wait_for_function(in_place, arg=[str(card), place])


@pytest.mark.django_db(transaction=True)
def test_live_a_teacher_starts_line_up_and_two_teams_of_two_play_a_round(
    live_site, signed_in, class_7b, ms_rivera
):
    from django.utils import timezone

    from games import services
    from games.models import GameSession, GameTable
    from tests.factories import enrolled_student

    names = ("Ava M.", "Ben K.", "Cai L.", "Dee R.")
    students = [enrolled_student(class_7b, display_name=name) for name in names]
    session = services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="lineup",
        scheduled_for=timezone.now() + timedelta(hours=1),
        # Geography: its items' names are words (a maths card such as "2" is also on the projector as a
        # score, so looking for it in the projector's text would find it when it is not shown).
        # The shortest reveal a teacher may choose (the default is 25 s), so the clock's move on is seen.
        settings={"board": "short", "answer_seconds": 120, "subject": "geography", "reveal_seconds": 10},
    )
    url = live_site
    console = signed_in(url, user=ms_rivera)
    console.goto(f"{url}/sessions/{session.pk}/")
    console.get_by_role("button", name="Open the lobby now").click()
    console.get_by_role("button", name="Start the game").wait_for()

    devices = {}
    for student in students:
        page = signed_in(url, student=student, width=1024, height=768)
        page.goto(f"{url}/play/{session.pk}/")
        page.get_by_role("button", name="Join the game").click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices[student.display_name] = page
    projector = signed_in(url, user=ms_rivera)
    projector.goto(f"{url}/sessions/{session.pk}/projector/")

    console.get_by_role("button", name="Start the game").click()
    for page in devices.values():
        page.locator("[data-rack] [data-card='5']").wait_for()
    table = GameTable.objects.get(session=session)
    state = table.state
    by_team = {
        team: [devices[state["players"][p]["name"]] for p in info["members"]]
        for team, info in state["teams"].items()
    }
    captain = {team: devices[state["players"][state["q"]["captain"][team]]["name"]] for team in by_team}
    mate = {team: next(p for p in by_team[team] if p is not captain[team]) for team in by_team}
    answer = h.current_question(state)["answer"]

    # Blue: the teammate taps two cards to swap them; the captain sees it and finishes with the keyboard.
    mate["blue"].locator("[data-rack] [data-card='2']").click()
    mate["blue"].locator("[data-rack] [data-card='1']").click()
    rack_is = (
        "o => [...document.querySelectorAll('[data-rack] [data-card]')]"
        ".map(e => e.dataset.card).join('') === o"
    )
    captain["blue"].wait_for_function(rack_is, arg="21345")
    # All five right: blue ends on space 5 (no star there), yellow gets one right and ends on space 1.
    arrange(captain["blue"], answer)
    arrange(mate["yellow"], h.order_with(answer, 1))
    captain["yellow"].wait_for_function(rack_is, arg="".join(map(str, h.order_with(answer, 1))))
    assert mate["blue"].locator("[data-action=confirm]").count() == 0
    captain["blue"].locator("[data-action=confirm]").click()
    captain["blue"].get_by_text("Your answer is locked in.").wait_for()
    projector.locator("[data-team=blue]").get_by_text("locked in").wait_for()
    # The projector never shows a rack or a datum before the reveal.
    question = h.current_question(GameTable.objects.get(pk=table.pk).state)
    screen = projector.locator("[data-tables]").inner_text()
    assert projector.locator("[data-rack], [data-rack-readonly]").count() == 0
    assert question["explanation"] not in screen
    assert all(item["display"] not in screen for item in question["items"])

    # Yellow locks in what its teammate arranged.
    captain["yellow"].locator("[data-action=confirm]").click()
    for page in (*devices.values(), projector):
        page.locator("[data-phase=reveal]").wait_for()
    assert question["explanation"] in projector.locator("[data-tables]").inner_text()
    table.refresh_from_db()
    results = table.state["reveal"]["results"]
    assert right_count(results["blue"]["order"], answer) == 5 and results["yellow"]["right"] == 1
    assert {team: info["pos"] for team, info in table.state["teams"].items()} == {"blue": 5, "yellow": 1}
    assert "Blue team moves 5 spaces" in projector.locator("[data-tables]").inner_text()
    console.locator("[data-team-detail=blue]").wait_for()

    # After the reveal's seconds the game clock starts round 2 on every device.
    for page in devices.values():
        page.locator("[data-phase=answer] [data-rack]").wait_for(timeout=25_000)
    assert GameTable.objects.get(pk=table.pk).state["round"] == 2
    assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.RUNNING
    # One countdown per device: the module's own beside the move (the page draws none on a device).
    for page in devices.values():
        assert page.locator(".countdown").count() == 0
        assert page.locator(".lu-clock").count() == 1, page.locator("[data-table-id]").evaluate_all(
            "cards => cards.map(c => c.outerHTML.slice(0, 400))"
        )
    for page in (*devices.values(), projector, console):
        assert page.errors == []


def test_the_question_names_its_subject_as_the_teachers_setting_does(new_page):
    bench = Bench(new_page, h.new_game(questions=[{**q, "subject": "body"} for q in h.QUESTIONS]))
    page = bench.device("ava", "player", "ava")
    meta = page.locator(".lu-q-meta").first.inner_text()
    assert "The human body" in meta and "body" not in meta.replace("The human body", "")
