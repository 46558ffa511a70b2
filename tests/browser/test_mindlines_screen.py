"""Mind the Lines in a real browser.

1. The game module against the real engine (no server): a page holds the module, a fake page
   controller hands it each view, and every action the screen sends goes through ``MindTheLines.apply``.
   A group of three plays a round: touch-style pointer strokes snap to the dotted lines (the engine
   accepts them, so nothing was drawn off the lines), erase and undo, keyboard drawing, then
   prophesying and the reveal. The teacher's console and the projector show what they may, no more.
2. The same through the real pages (teacher console, student devices, websocket): see the end.
"""

from __future__ import annotations

import itertools
import json

import pytest

from games import content
from games.engine import core
from games.engine.mindlines import MindTheLines, boards, rules
from tests.browser.harness import add_game_scripts, styles_of

pytestmark = [pytest.mark.browser]

GAME = MindTheLines()

HARNESS = """
window.gettext = (text) => text;
window.ngettext = (one, many, n) => (n === 1 ? one : many);
window.interpolate = (text, values) => text.replace(/%\\((\\w+)\\)s/g, (_m, key) => String(values[key]));
window.announced = [];
window.drafts = {};
window.Classplay = {
  games: {},
  registerGame(name, module) { this.games[name] = module; },
};
window.mount = (role, compact) => {
  const container = document.createElement("div");
  container.id = "table";
  document.querySelector("main").append(container);
  window.ctx = {
    role, compact, player: null,
    act: async (action) => {
      const reply = JSON.parse(await window.pyAct(JSON.stringify(action)));
      if (reply.error) throw reply.error;
      window.show(reply.table);
      return reply.ack;
    },
    countdown: (element, deadline) => { element.textContent = deadline ? "1:00" : ""; },
    serverNow: () => Date.now() / 1000,
    announce: (text) => window.announced.push(text),
    draft: (key) => (window.drafts[key] === undefined ? null : window.drafts[key]),
    saveDraft: (key, value) => { window.drafts[key] = value; },
    gettext: window.gettext, interpolate: window.interpolate,
    session: { id: 1, game: "mindlines", title: "Test", status: "running", participants: [] },
  };
};
window.show = (table) => {
  window.Classplay.games.mindlines.render(document.getElementById("table"), table, window.ctx);
};
/* touch-style pointer events along lattice points of the board (board coordinates, in dots) */
window.stroke = (points, type = "touch") => {
  const svg = document.querySelector(".ml-main-board");
  const group = svg.querySelector(".ml-turn");
  const matrix = group.getScreenCTM();
  const at = ([x, y]) => {
    const point = svg.createSVGPoint();
    point.x = x; point.y = y;
    const screen = point.matrixTransform(matrix);
    return { clientX: screen.x, clientY: screen.y };
  };
  const base = { pointerId: 7, pointerType: type, isPrimary: true, bubbles: true, cancelable: true };
  const send = (kind, point) => svg.dispatchEvent(new PointerEvent(kind, { ...base, ...at(point) }));
  send("pointerdown", points[0]);
  for (const point of points.slice(1)) send("pointermove", point);
  send("pointerup", points[points.length - 1]);
};
"""


KEYS = {
    (1, 0): "ArrowRight",
    (-1, 0): "ArrowLeft",
    (0, 1): "ArrowDown",
    (0, -1): "ArrowUp",
    (1, 1): "PageDown",
    (-1, 1): "End",
    (1, -1): "PageUp",
    (-1, -1): "Home",
}
NAMES = ["Ava", "Ben", "Chloe", "Dev"]


class Table:
    """One group's engine state, acting for the page's player (or the teacher)."""

    def __init__(self, players: int = 3, seed: str = "browser-mtl"):
        cfg = content.default_config(
            "mindlines",
            players=[{"id": f"s{n}", "name": NAMES[n]} for n in range(players)],
            seed_rng=core.Rng("cfg"),
        )
        self.state = GAME.setup(cfg, seed, now=0.0)
        self.seq = 1
        self.now = 1.0
        self.viewer: dict = {}
        self.refusals: list[dict] = []

    def message(self) -> dict:
        view = GAME.view(self.state, self.viewer)
        return {"table": 1, "number": 1, "seq": self.seq, "status": "playing", "view": view}

    def apply(self, player: str, action: dict) -> None:
        self.now += 1
        self.state, _events = GAME.apply(self.state, player, action, self.now)
        self.seq += 1

    def act_from_page(self, raw: str) -> str:
        assert len(raw.encode()) < 16_384  # the websocket's message limit
        action = json.loads(raw)
        player = self.viewer.get("player") or core.TEACHER
        try:
            self.apply(player, action)
        except core.IllegalAction as refused:
            self.refusals.append(action)
            return json.dumps({"error": {"code": refused.code, "message": str(refused)}})
        return json.dumps({"ack": {"seq": self.seq, "duplicate": False}, "table": self.message()})

    def lines(self, player: str) -> list[list[int]]:
        drawing = self.state["drawings"][player]
        return boards.side_lines(
            self.state["board_seed"], rules.BOARD_COUNT, drawing["board"], drawing["side"]
        )

    def walk(self, player: str, length: int) -> list[list[int]]:
        """A path of dots along the player's dotted lines, for the pointer (or the keys) to follow."""
        by_point: dict[tuple, list] = {}
        for x1, y1, x2, y2 in self.lines(player):
            by_point.setdefault((x1, y1), []).append((x2, y2))
            by_point.setdefault((x2, y2), []).append((x1, y1))
        best: list = []
        for start in sorted(by_point):
            path, seen = [start], {start}
            while len(path) <= length:
                options = [p for p in by_point[path[-1]] if p not in seen]
                if not options:
                    break
                path.append(options[0])
                seen.add(options[0])
            if len(path) > len(best):
                best = path
            if len(best) > length:
                break
        return [list(point) for point in best]


def open_harness(new_page, table: Table, role: str, player: str | None, compact=False, size=(1366, 768)):
    page = new_page(width=size[0], height=size[1])
    page.set_content(
        "<!doctype html><html lang='en'><body><main id='main' class='page'></main></body></html>"
    )
    for sheet in styles_of("mindlines"):
        page.add_style_tag(content=sheet.read_text())
    page.expose_function("pyAct", table.act_from_page)
    page.add_script_tag(content=HARNESS)
    add_game_scripts(page, "mindlines")
    table.viewer = {"role": "player", "player": player} if player else {"role": role}
    page.evaluate("([role, compact]) => window.mount(role, compact)", [role, compact])
    page.evaluate("(player) => { window.ctx.player = player; }", player)
    refresh(page, table)
    return page


def refresh(page, table: Table) -> None:
    page.evaluate("(table) => window.show(table)", table.message())


def wait_strokes(page, count: int) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('.ml-ink-meter').textContent.startsWith(`Strokes: ${n} `)", arg=count
    )


def segments_of(path: list[list[int]]) -> set[tuple]:
    return {tuple(boards.canonical(*a, *b)) for a, b in itertools.pairwise(path)}


def stored_halves(strokes: list) -> set[tuple]:
    return {half for stroke in strokes for half in boards.halves_of_stored(stroke)}


def everyone_ready(table: Table, *others: str) -> None:
    for other in others:
        table.apply(other, {"type": "ready"})


def show_simple_drawings(table: Table, *players: str) -> None:
    for player in players:
        table.apply(player, {"type": "stroke", "segments": [table.lines(player)[0]]})
        table.apply(player, {"type": "done"})


def test_a_group_of_three_draws_with_touch_then_prophesies_through_the_screen(new_page, tmp_path):
    table = Table(3)
    page = open_harness(new_page, table, "player", "s0", size=(1024, 768))  # an iPad in landscape
    page.get_by_text("Your two secret concepts").wait_for()
    for concept in GAME.view(table.state, table.viewer)["me"]["concepts"]:
        page.get_by_text(concept["text"], exact=True).wait_for()
    page.get_by_role("button", name="I know my concept").click()
    page.get_by_text("Waiting for the others to read theirs").wait_for()
    everyone_ready(table, "s1", "s2")
    refresh(page, table)
    page.get_by_role("application", name="Your scribble board").wait_for()

    # a touch stroke along the dotted lines: the engine stores exactly the segments walked
    path = table.walk("s0", 4)
    assert len(path) >= 3
    page.evaluate("(points) => window.stroke(points)", path)
    wait_strokes(page, 1)
    assert stored_halves(table.state["drawings"]["s0"]["strokes"]) == {
        (*segment, half) for segment in segments_of(path) for half in (0, 1)
    }
    # a pen stroke that stops half-way along a dotted segment
    (x1, y1), (x2, y2) = path[0], path[1]
    page.evaluate("(points) => window.stroke(points, 'pen')", [[x1, y1], [(x1 + x2) / 2, (y1 + y2) / 2]])
    wait_strokes(page, 2)
    assert [len(piece) for piece in table.state["drawings"]["s0"]["strokes"][1]] == [5]
    page.get_by_role("button", name="Undo").click()
    wait_strokes(page, 1)

    # the eraser: a tap on a line erases its whole stroke; undo brings it back
    page.get_by_role("button", name="Eraser").click()
    page.evaluate("(points) => window.stroke(points)", [path[1]])
    wait_strokes(page, 0)
    page.get_by_role("button", name="Undo").click()
    wait_strokes(page, 1)
    # the eraser rubs out part of a stroke
    page.evaluate("(points) => window.stroke(points, 'mouse')", [path[-2], path[-1]])
    page.wait_for_function(
        "(n) => !document.querySelector('.ml-ink-meter').textContent.includes(`ink: ${n} `)",
        arg=2 * len(segments_of(path)),
    )
    page.get_by_role("button", name="Pen").click()

    # keyboard: move the pen to a dot, put it down, draw half-segments with the arrow keys, lift it
    target = table.walk("s0", 2)
    board = page.get_by_role("application", name="Your scribble board")
    board.focus()
    cursor = [5, 5]
    while cursor != target[0]:
        step = (
            int(target[0][0] > cursor[0]) - int(target[0][0] < cursor[0]),
            int(target[0][1] > cursor[1]) - int(target[0][1] < cursor[1]),
        )
        page.keyboard.press(KEYS[step])
        cursor = [cursor[0] + step[0], cursor[1] + step[1]]
    page.keyboard.press("Space")
    for a, b in itertools.pairwise(target):
        page.keyboard.press(KEYS[(b[0] - a[0], b[1] - a[1])])
        page.keyboard.press(KEYS[(b[0] - a[0], b[1] - a[1])])
    page.keyboard.press("Space")
    page.wait_for_function(
        "() => document.querySelector('.ml-ink-meter').textContent.startsWith('Strokes: 2 ')"
    )
    added = stored_halves(table.state["drawings"]["s0"]["strokes"][-1:])
    assert {half[:4] for half in added} == segments_of(target) and len(added) == 2 * len(segments_of(target))

    page.get_by_role("button", name="Turn right").click()
    page.wait_for_function(
        "() => document.querySelector('.ml-turn').getAttribute('transform').startsWith('rotate(90')"
    )
    assert table.state["drawings"]["s0"]["rotation"] == 90
    page.screenshot(path=str(tmp_path / "drawing.png"))
    page.get_by_role("button", name="Done: show my drawing").click()
    page.get_by_role("button", name="Yes, show it").click()
    page.get_by_text("Your drawing is shown").wait_for()
    assert table.refusals == []

    # the others show theirs; prophesying starts with 12 cards (3 players x 2 concepts, and as many decoys)
    show_simple_drawings(table, "s1", "s2")
    refresh(page, table)
    page.locator(".ml-prophecy").wait_for()
    assert page.locator(".ml-prophecy .ml-card").count() == 12
    mine = [table.state["concepts"][cid]["text"] for cid in table.state["hands"]["s0"]]
    assert sorted(page.locator(".ml-card.ml-own .ml-card-text").all_inner_texts()) == sorted(mine)
    page.screenshot(path=str(tmp_path / "prophesying.png"))
    while table.state["phase"] == "prophesying":
        turn = rules.prophesier(table.state)
        hand = set(table.state["hands"][turn])
        options = [c for c in rules.open_cards(table.state) if table.state["cards"][c] not in hand]
        if turn != "s0":
            table.apply(turn, {"type": "exclude", "card": options[-1]})
            continue
        refresh(page, table)
        card = options[0]
        text = table.state["concepts"][table.state["cards"][card]]["text"]
        page.get_by_text("Your turn: exclude one concept").first.wait_for()
        # your own concept is not a button: it cannot be excluded by a mis-tap
        assert page.locator(".ml-own .ml-card-button").count() == 0
        page.locator(f".ml-card-button[data-card='{card}']").click()
        page.get_by_role("button", name=f"Exclude “{text}”").click()
        page.locator(f".ml-card.ml-out[data-card='{card}']").wait_for()
    refresh(page, table)
    page.locator(".ml-round-result").wait_for()
    assert page.locator(".ml-revealed .ml-card").count() == 12
    errors = table.state["history"][-1]["errors"]
    assert page.locator(".ml-revealed .ml-error").count() == errors
    page.screenshot(path=str(tmp_path / "reveal.png"), full_page=True)
    page.get_by_role("button", name="Next round").click()
    page.get_by_text("Waiting for the others…").wait_for()
    assert "s0" in table.state["continued"] and not table.refusals


def test_the_console_watches_drawings_grow_and_hides_one_and_the_projector_keeps_every_secret(
    new_page, tmp_path
):
    table = Table(4, seed="console")
    everyone_ready(table, "s0", "s1", "s2", "s3")
    table.apply("s1", {"type": "stroke", "segments": [table.lines("s1")[0]]})
    console = open_harness(new_page, table, "teacher", None, compact=True)
    console.locator(".ml-drawing[data-player='s1'] .ml-stroke").wait_for(
        state="attached"
    )  # still drawing, already visible
    secrets = [table.state["concepts"][cid]["text"] for cid in table.state["plan"][0]]
    text = console.locator("#table").inner_text()
    assert not [secret for secret in secrets if secret in text]
    console.get_by_role("button", name="Hide drawing by Ben").click()
    console.get_by_role("button", name="Show again the drawing by Ben").wait_for()
    assert table.state["drawings"]["s1"]["hidden"]
    console.screenshot(path=str(tmp_path / "console.png"))

    show_simple_drawings(table, "s0", "s2", "s3")
    table.apply("s1", {"type": "done"})
    projector = open_harness(new_page, table, "projector", None)
    projector.locator(".ml-role-projector .ml-cards").wait_for()
    hidden = projector.locator(".ml-drawing[data-player='s1']")
    assert hidden.locator(".ml-stroke").count() == 0 and "hidden" in hidden.inner_text()
    html = projector.locator("#table").inner_html()
    for cid in table.state["plan"][0]:
        assert cid not in html  # no concept id, so nothing ties a card to a drawer or a decoy
    assert "ml-own" not in html and "ml-decoy" not in html
    projector.screenshot(path=str(tmp_path / "projector.png"))


def test_a_whole_board_in_one_stroke_is_sent_in_pieces_under_the_message_limit(new_page):
    table = Table(2, seed="dense")
    everyone_ready(table, "s0", "s1")
    page = open_harness(new_page, table, "player", "s0")
    lines = table.lines("s0")
    halves = [[*segment, half] for segment in lines for half in (0, 1)]
    chunks = page.evaluate(
        """(halves) => {
            const g = window.Classplay.games.mindlines._geometry;
            const pieces = g.piecesOf(halves.map((h) => h.join(",")));
            const out = [];
            for (let i = 0; i < pieces.length; i += 64) out.push(pieces.slice(i, i + 64));
            return out;
        }""",
        halves,
    )
    covered = set()
    for chunk in chunks:
        message = json.dumps(
            {"type": "action", "table": 1, "key": "k" * 36, "action": {"type": "stroke", "segments": chunk}}
        )
        assert len(message) < 16_384
        covered |= boards.parse_pieces(chunk, rules.MAX_PIECES_PER_STROKE)
    assert covered == {tuple(half) for half in halves}


def test_after_a_reload_unacknowledged_strokes_are_sent_again_unless_the_board_has_them(new_page):
    table = Table(2, seed="reload")
    everyone_ready(table, "s0", "s1")
    lines = table.lines("s0")
    table.apply("s0", {"type": "stroke", "segments": [lines[0]]})  # got through; its ack was lost
    page = new_page()
    page.set_content("<!doctype html><html lang='en'><body><main id='main'></main></body></html>")
    page.expose_function("pyAct", table.act_from_page)
    page.add_script_tag(content=HARNESS)
    add_game_scripts(page, "mindlines")
    table.viewer = {"role": "player", "player": "s0"}
    page.evaluate("() => window.mount('player', false)")
    key = f"mindlines:unsent:1:{table.state['round'] + 1}"
    page.evaluate(
        "([key, value]) => { window.drafts[key] = value; }", [key, json.dumps([[lines[0]], [lines[1]]])]
    )
    refresh(page, table)
    page.wait_for_function("(key) => window.drafts[key] === ''", arg=key)
    strokes = table.state["drawings"]["s0"]["strokes"]
    assert strokes == [[lines[0]], [lines[1]]]  # the lost one again, the known one not twice


HELD_STROKE = """({points, table}) => {
  const svg = document.querySelector(".ml-main-board");
  const at = ([x, y]) => {
    const point = svg.createSVGPoint();
    point.x = x; point.y = y;
    const screen = point.matrixTransform(svg.querySelector(".ml-turn").getScreenCTM());
    return { clientX: screen.x, clientY: screen.y };
  };
  const base = { pointerId: 5, pointerType: "touch", isPrimary: true, bubbles: true, cancelable: true };
  const send = (kind, point) => svg.dispatchEvent(new PointerEvent(kind, { ...base, ...at(point) }));
  send("pointerdown", points[0]);
  send("pointermove", points[1]);
  window.show(table);  // a classmate's move arrives while the finger is down
  const kept = document.querySelector(".ml-main-board") === svg;
  const live = svg.querySelector(".ml-live").getAttribute("d");
  for (const point of points.slice(2)) send("pointermove", point);
  send("pointerup", points[points.length - 1]);
  return { kept, live };
}"""


def test_a_change_that_arrives_mid_stroke_is_drawn_when_the_finger_lifts(new_page):
    table = Table(2, seed="held")
    everyone_ready(table, "s0", "s1")
    page = open_harness(new_page, table, "player", "s0")
    path = table.walk("s0", 3)
    table.apply("s1", {"type": "stroke", "segments": [table.lines("s1")[0]]})
    held = page.evaluate(HELD_STROKE, {"points": path, "table": table.message()})
    assert held["kept"] and held["live"], held  # the board and the stroke in progress stay under the finger
    wait_strokes(page, 1)
    assert stored_halves(table.state["drawings"]["s0"]["strokes"]) == {
        (*segment, half) for segment in segments_of(path) for half in (0, 1)
    }
    assert table.refusals == []


# --------------------------------------------------------------------------------------------------
# 2. Through the real pages: scheduling form, console, projector, three student devices, websocket, clock
# --------------------------------------------------------------------------------------------------

TOUCH_STROKE = """(points) => {
  const svg = document.querySelector(".ml-main-board");
  const group = svg.querySelector(".ml-turn");
  const matrix = group.getScreenCTM();
  const at = ([x, y]) => {
    const point = svg.createSVGPoint();
    point.x = x; point.y = y;
    const screen = point.matrixTransform(matrix);
    return { clientX: screen.x, clientY: screen.y };
  };
  const base = { pointerId: 3, pointerType: "touch", isPrimary: true, bubbles: true, cancelable: true };
  const send = (kind, point) => svg.dispatchEvent(new PointerEvent(kind, { ...base, ...at(point) }));
  send("pointerdown", points[0]);
  for (const point of points.slice(1)) send("pointermove", point);
  send("pointerup", points[points.length - 1]);
}"""


def _walk(state: dict, player: str) -> list[list[int]]:
    table = Table.__new__(Table)
    table.state = state
    return table.walk(player, 3)


@pytest.mark.django_db(transaction=True)
def test_a_group_of_three_plays_a_round_through_the_real_pages(
    live_site, signed_in, class_7b, ms_rivera, tmp_path
):
    from games.models import GameSession, GameTable
    from tests.factories import enrolled_student

    names = ("Ava M.", "Ben K.", "Chloe L.")
    students = [enrolled_student(class_7b, display_name=name) for name in names]

    console = signed_in(live_site, user=ms_rivera)
    console.goto(f"{live_site}/dashboard/")
    console.get_by_role("link", name="Schedule a game").click()
    console.get_by_label("Game").select_option("mindlines")
    console.locator("#id_title").fill("Week 12 words")
    console.get_by_role("spinbutton", name="Seconds to draw").fill("300")
    console.get_by_role("button", name="Schedule for the start time").click()
    console.get_by_role("heading", name="Week 12 words").wait_for()
    session = GameSession.objects.get(title="Week 12 words")
    assert session.settings["draw_seconds"] == 300
    console.get_by_role("button", name="Open the lobby now").click()
    console.get_by_role("button", name="Start the game").wait_for()

    devices = {}
    for student, size in zip(students, [(1366, 768), (1024, 768), (820, 1180)], strict=True):
        page = signed_in(live_site, student=student, width=size[0], height=size[1])
        page.goto(f"{live_site}/me/")
        card = page.locator("[data-open-session]", has_text="Week 12 words")
        card.get_by_role("button", name="Join").click()
        page.get_by_text("Wait for your teacher to start the game").wait_for()
        devices[f"s{student.pk}"] = page
    console.get_by_text("3 students in, 3 connected now").wait_for()
    projector = signed_in(live_site, user=ms_rivera)
    projector.goto(f"{live_site}/sessions/{session.pk}/projector/")
    console.get_by_role("button", name="Start the game").click()

    # Everyone reads their two secret concepts (three players: two each) and says so.
    for page in devices.values():
        page.get_by_text("Your two secret concepts").wait_for()
    table = GameTable.objects.get(session=session)
    for player, page in devices.items():
        page.get_by_text("Your two secret concepts").wait_for()
        for cid in table.state["hands"][player]:
            page.get_by_text(table.state["concepts"][cid]["text"], exact=True).wait_for()
        page.get_by_role("button", name="I know my concept").click()
    for page in devices.values():
        page.get_by_role("application", name="Your scribble board").wait_for()

    # Each draws with touch along their own board's dotted lines and shows the drawing.
    table.refresh_from_db()
    for player, page in devices.items():
        page.evaluate(TOUCH_STROKE, _walk(table.state, player))
        page.wait_for_function(
            "() => document.querySelector('.ml-ink-meter').textContent.startsWith('Strokes: 1 ')"
        )
    table.refresh_from_db()
    for player in devices:
        assert len(table.state["drawings"][player]["strokes"]) == 1
    first = next(iter(devices))
    list(devices.values())[2].screenshot(path=str(tmp_path / "portrait-drawing.png"))
    console.locator(f".ml-drawing[data-player='{first}'] .ml-stroke").first.wait_for(state="attached")
    for page in devices.values():
        page.get_by_role("button", name="Done: show my drawing").click()
        page.get_by_role("button", name="Yes, show it").click()

    # Prophesying: twelve cards; in turn each excludes a card that is not their own, twice each.
    for page in devices.values():
        page.locator(".ml-prophecy").wait_for()
    projector.locator(".ml-role-projector .ml-cards .ml-card").first.wait_for()
    assert projector.locator(".ml-role-projector .ml-cards .ml-card").count() == 12
    for turn in range(6):
        table.refresh_from_db()
        player = table.state["turn_order"][turn]
        page = devices[player]
        hand = set(table.state["hands"][player])
        excluded = {entry["card"] for entry in table.state["excluded"]}
        decoys = set(table.state["decoys"])  # a group that reads every drawing right
        card = next(c for c, cid in enumerate(table.state["cards"]) if cid in decoys and c not in excluded)
        assert table.state["cards"][card] not in hand
        page.get_by_text("Your turn: exclude one concept").first.wait_for()
        page.locator(f".ml-card-button[data-card='{card}']").click()
        page.locator("[data-fk=exclude]").click()
        for other in devices.values():
            other.locator(f".ml-card.ml-out[data-card='{card}']").wait_for(state="attached")

    # The reveal on every screen: who drew what, the decoys, the error points.
    for page in [*devices.values(), projector]:
        page.locator(".ml-round-result").wait_for()
    table.refresh_from_db()
    errors = table.state["history"][-1]["errors"]
    assert projector.locator(".ml-revealed .ml-error").count() == errors
    console.screenshot(path=str(tmp_path / "console.png"), full_page=True)
    projector.screenshot(path=str(tmp_path / "projector.png"))
    assert errors == 0 and projector.locator(".ml-revealed .ml-drawn.ml-left").count() == 6
    assert console.locator(".ml-drawing .ml-concept-tag").count() == 3
    # Everyone moves on: round 2 starts with the boards passed clockwise. (Each device's "Next round" is
    # seen through before the next one taps, so every tap lands on a settled screen.)
    pages = list(devices.values())
    for page in pages[:-1]:
        page.get_by_role("button", name="Next round").click()
        page.get_by_text("Waiting for the others…").wait_for()
    pages[-1].get_by_role("button", name="Next round").click()
    for page in devices.values():
        page.locator("[data-round='2'][data-phase='looking']").wait_for(state="attached")
    table.refresh_from_db()
    players = table.state["players"]
    assert [table.state["drawings"][p]["board"] for p in players] == [2, 0, 1]
    for page in [console, projector, *devices.values()]:
        assert page.errors == []
