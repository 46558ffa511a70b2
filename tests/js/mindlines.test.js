// Mind the Lines' screen in Node.js on recorded view messages (tests/js/fixtures/mindlines, made by
// `.venv/bin/python -m tests.js.record_mindlines`): what its view draws for each viewer, and what its input
// sends for taps and keys. Pointer strokes, layout and the board's size: tests/browser/test_mindlines_*.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const { fixture, loadScreen } = require("./screen.js");

const SCRIPTS = ["words", "geometry", "board", "view", "fit", "input"].map((part) => `js/games/mindlines/${part}.js`);
/** A page without layout (linkedom draws nothing): the board's fit to the screen measures nothing. */
function open() {
  const page = loadScreen("mindlines", SCRIPTS);
  const box = { top: 0, bottom: 0, left: 0, right: 0, width: 0, height: 0 };
  page.window.getComputedStyle = () => ({ getPropertyValue: () => "", columnGap: "0" });
  page.window.Element.prototype.getBoundingClientRect = () => box;
  page.window.innerHeight = 768;
  return page;
}
const recorded = (name) => fixture("mindlines", name);

/** A key pressed on the focused board. */
function boardKey(page, key) {
  const event = new page.window.Event("keydown", { bubbles: true, cancelable: true });
  Object.assign(event, { key });
  page.$("svg[data-pen]").dispatchEvent(event);
  return event.defaultPrevented;
}

const KEYS = { "1,0": "ArrowRight", "-1,0": "ArrowLeft", "0,1": "ArrowDown", "0,-1": "ArrowUp",
  "1,1": "PageDown", "-1,1": "End", "1,-1": "PageUp", "-1,-1": "Home" };

test.describe("view: what each viewer sees", () => {
  test("while reading, the player sees their own concepts, a board to look at and one button", () => {
    const page = open();
    const message = recorded("looking.player");
    page.show(message);
    const concepts = message.table.view.me.concepts.map((concept) => concept.text);
    assert.deepEqual(page.$$(".ml-secret-text").map((item) => item.textContent), concepts);
    assert.equal(page.text(".ml-secret h3"), "Your two secret concepts");
    assert.deepEqual(page.$$("button[data-action]").map((b) => b.dataset.action), ["side", "turn", "turn", "ready"]);
    assert.equal(page.$("svg[data-pen]"), null, "nobody draws while reading");
    assert.match(page.$(".ml-main-board").getAttribute("aria-label"), /^Your scribble board, side A, 0 strokes\.$/);
    assert.equal(page.$(".ml-root").dataset.phase, "looking");
  });

  test("while drawing, the board is an application with the tools beside it", () => {
    const page = open();
    page.show(recorded("drawing.player"));
    const board = page.$("svg[data-pen]");
    assert.equal(board.getAttribute("role"), "application");
    assert.equal(board.getAttribute("tabindex"), "0");
    assert.equal(page.$$(".ml-ink .ml-stroke:not(.ml-pending):not(.ml-live)").length, 1);
    assert.match(page.text(".ml-ink-meter"), /^Strokes: 1 of 40 · ink: 2 of 600$/);
    const buttons = Object.fromEntries(page.$$("button[data-fk]").map((b) => [b.dataset.fk, b.disabled]));
    assert.equal(buttons.undo, false);
    assert.equal(buttons.side, true, "a side with ink on it cannot be changed");
    assert.equal(buttons["tool-pen"], false);
    assert.equal(page.$("[data-fk=tool-pen]").getAttribute("aria-pressed"), "true");
    assert.ok(page.$("[data-fk=done]"));
  });

  test("the console watches every drawing grow and may hide one, never seeing a concept", () => {
    const page = open();
    const message = recorded("scribbling.console");
    page.show(message);
    assert.ok(page.$(".ml-root.ml-compact.ml-role-teacher"));
    assert.deepEqual(page.$$("button[data-action=hide]").map((b) => b.dataset.player), ["p1", "p2", "p3"]);
    assert.equal(page.$$(".ml-drawing[data-player=p1] .ml-stroke").length, 1, "a drawing still being drawn");
    assert.equal(page.$$(".ml-secret-text").length, 0);
  });

  test("the prophesier's device makes the others' open cards buttons, never their own", () => {
    const page = open();
    const message = recorded("prophesying.player");
    page.show(message);
    const mine = message.table.view.me.cards;
    const buttons = page.$$(".ml-card-button");
    assert.equal(page.$$(".ml-prophecy .ml-card").length, 12);
    assert.equal(buttons.length, 12 - mine.length);
    assert.ok(buttons.every((b) => !mine.includes(Number(b.dataset.card))));
    assert.equal(page.$$(".ml-card.ml-own").length, mine.length);
    assert.equal(page.text(".ml-turn"), "Your turn: exclude one concept you think nobody drew.");
  });

  test("another player waits, and the projector shows the cards and the drawings, nothing to press", () => {
    for (const name of ["prophesying.waiting", "prophesying.projector"]) {
      const page = open();
      page.show(recorded(name));
      assert.equal(page.$$("button").length, 0, name);
      assert.equal(page.$$(".ml-card").length, 12, name);
      assert.equal(page.$$(".ml-gallery .ml-drawing").length, 3, name);
    }
  });

  test("the reveal says who drew what and the round's error points", () => {
    const page = open();
    const message = recorded("reveal.player");
    page.show(message);
    const reveal = message.table.view.history.at(-1);
    assert.equal(page.$$(".ml-revealed .ml-card").length, 12);
    assert.equal(page.$$(".ml-revealed .ml-error").length, reveal.errors);
    assert.match(page.text(".ml-round-result"), /^Round 1: 0 error points\./);
    assert.equal(page.text("[data-action=continue]"), "Next round");
    assert.equal(page.$$(".ml-concept-tag").length, 3);
  });

  test("a redraw morphs the screen: the board and the buttons that stay are the same nodes", () => {
    const page = open();
    const message = recorded("drawing.player");
    page.show(message);
    const board = page.$(".ml-main-board");
    const done = page.$("[data-fk=done]");
    page.show({ ...message, table: { ...message.table, seq: message.table.seq + 1 } });
    assert.equal(page.$(".ml-main-board"), board);
    assert.equal(page.$("[data-fk=done]"), done);
    assert.equal(page.screen.draws, 2);
  });
});

test.describe("input: what taps and keys send", () => {
  test("a card picked is confirmed before it is excluded; Choose another drops the pick", async () => {
    const page = open();
    page.show(recorded("prophesying.player"));
    const card = page.$(".ml-card-button");
    page.click(card);
    assert.equal(card.getAttribute("aria-pressed"), "true");
    page.click(page.$("[data-action=exclude-cancel]"));
    assert.equal(page.$("[data-action=exclude]"), null);
    page.click(page.$(".ml-card-button"));
    assert.match(page.text("[data-action=exclude]"), /^Exclude “.+”$/);
    page.click(page.$("[data-action=exclude]"));
    assert.deepEqual(page.sent, [{ type: "exclude", card: Number(card.dataset.card) }]);
    await page.settle(false, "It is not your turn.");
    assert.equal(page.text(".ml-message"), "It is not your turn.");
    assert.equal(page.announced.at(-1), "It is not your turn.");
  });

  test("done and clear are asked twice; the tool is kept for the round", async () => {
    const page = open();
    page.show(recorded("drawing.player"));
    page.click(page.$("[data-action=clear]"));
    page.click(page.$("[data-action=clear-no]"));
    assert.equal(page.sent.length, 0);
    page.click(page.$("[data-action=clear]"));
    page.click(page.$("[data-action=clear-yes]"));
    page.click(page.$("[data-action=done]"));
    assert.equal(page.text(".ml-confirm p"), "Show your drawing now? You can't change it after this.");
    page.click(page.$("[data-action=done-yes]"));
    assert.deepEqual(page.sent, [{ type: "clear" }, { type: "done" }]);
    page.click(page.$("[data-action=tool][data-tool=eraser]"));
    assert.equal(page.$("[data-fk=tool-eraser]").getAttribute("aria-pressed"), "true");
    assert.ok(page.$(".ml-main-board").classList.contains("ml-erasing"));
    assert.equal(page.drafts["mindlines:tool:7:1"], "eraser");
  });

  test("the board turns by a quarter each way and says so", async () => {
    const page = open();
    page.show(recorded("drawing.player"));
    page.click(page.$("[data-fk=turn-left]"));
    assert.deepEqual(page.sent, [{ type: "rotate", rotation: 270 }]);
    await page.settle(true);
    assert.equal(page.announced.at(-1), "Board turned: 270 degrees");
  });

  test("with the keys the pen goes to a dot, draws along a line half by half and sends the stroke", async () => {
    const page = open();
    const message = recorded("scribbling.player");
    page.show(message);
    const drawing = message.table.view.me.drawing;
    const [x1, y1, x2, y2] = drawing.sides[drawing.side][0];
    let at = [5, 5];
    while (at[0] !== x1 || at[1] !== y1) {
      const step = [Math.sign(x1 - at[0]), Math.sign(y1 - at[1])];
      assert.ok(boardKey(page, KEYS[step.join(",")]));
      at = [at[0] + step[0], at[1] + step[1]];
    }
    assert.equal(page.announced.at(-1), "On a dotted line");
    boardKey(page, " ");
    assert.ok(page.$(".ml-cursor").classList.contains("ml-cursor-down"));
    const towards = KEYS[[x2 - x1, y2 - y1].join(",")];
    boardKey(page, towards);
    assert.notEqual(page.$(".ml-live").getAttribute("d"), "", "half a line drawn live");
    boardKey(page, towards);
    boardKey(page, "Enter");
    assert.deepEqual(page.sent, [{ type: "stroke", segments: [[x1, y1, x2, y2]] }]);
    assert.equal(page.announced.at(-1), "Pen up");
    assert.notEqual(page.$(".ml-pending").getAttribute("d"), "", "drawn pale until acknowledged");
    assert.deepEqual(JSON.parse(page.drafts["mindlines:unsent:7:1"]), [[[x1, y1, x2, y2]]]);
    await page.settle(true);
    assert.equal(page.drafts["mindlines:unsent:7:1"], "");
    assert.ok(boardKey(page, "u") === true && page.sent.length === 1, "nothing to undo on an empty board");
  });

  test("after a reload the strokes never acknowledged are sent again", () => {
    const page = open();
    const message = recorded("scribbling.player");
    const drawing = message.table.view.me.drawing;
    const line = drawing.sides[drawing.side][0];
    page.drafts["mindlines:unsent:7:1"] = JSON.stringify([[line]]);
    page.show(message);
    assert.deepEqual(page.sent, [{ type: "stroke", segments: [line] }]);
  });

  test("a held screen draws a new message only when released (a finger on the board)", () => {
    const page = open();
    const message = recorded("scribbling.player");
    const screen = page.show(message);
    screen.hold();
    page.show(recorded("drawing.player"));
    assert.equal(page.screen.draws, 1);
    assert.match(page.text(".ml-ink-meter"), /^Strokes: 0 /);
    screen.release();
    assert.match(page.text(".ml-ink-meter"), /^Strokes: 1 /);
  });

  test("a phase's news is said once, with the exclusion that brought it", () => {
    const page = open();
    page.show(recorded("prophesying.waiting"));
    page.show(recorded("reveal.player"));
    assert.match(page.announced.at(-1), /excluded “.+”\. The reveal: 0 error points this round\.$/);
  });
});
