// Line Up!'s screen in Node.js on recorded view messages (tests/js/fixtures/lineup, made by
// `.venv/bin/python -m tests.js.record_lineup`): what its view draws for each viewer, and what its input
// sends for taps and keys. Played in a real browser, with drags and layout: tests/browser/test_lineup_*.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const { fixture, loadScreen } = require("./screen.js");

const SCRIPTS = ["words", "board", "panels", "view", "input", "practice"].map((part) => `js/games/lineup/${part}.js`);
const open = () => loadScreen("lineup", SCRIPTS);
const recorded = (name) => fixture("lineup", name);
const rackOf = (page) => page.$$("[data-rack] [data-card]").map((card) => Number(card.dataset.card));

test.describe("view: what each viewer sees", () => {
  test("the captain sees the team's rack as buttons in place order, and the lock-in", () => {
    const page = open();
    page.show(recorded("answer.captain"));
    const screen = page.$(".lu");
    assert.equal(screen.dataset.phase, "answer");
    assert.equal(screen.dataset.mini, "purple");
    assert.equal(screen.dataset.seq, "1");
    assert.deepEqual(rackOf(page), [1, 2, 3, 4, 5]);
    assert.ok(page.$$("[data-rack] [data-card]").every((card) => card.tagName === "BUTTON" && card.getAttribute("aria-pressed") === "false"));
    assert.equal(page.$("[data-action=confirm]").disabled, false);
    assert.match(page.text(), /You are the captain/);
  });

  test("a teammate moves the rack too, but only the captain locks in", () => {
    const page = open();
    page.show(recorded("answer.mate"));
    assert.deepEqual(rackOf(page), [1, 2, 3, 4, 5]);
    assert.equal(page.$("[data-action=confirm]"), null);
    assert.match(page.text(".lu-captain-note"), /^Only your captain, \w+, can lock it in/);
  });

  test("the projector and the console show no rack to move; the console shows both teams' racks", () => {
    const projector = open();
    projector.show(recorded("answer.projector"));
    assert.equal(projector.$$("[data-rack], [data-rack-readonly], button").length, 0);
    assert.equal(projector.$$("[data-team]").length, 2);
    const console_ = open();
    console_.show(recorded("answer.console"));
    assert.ok(console_.$(".lu-console"));
    assert.equal(console_.$$("[data-team-detail]").length, 2);
    assert.equal(console_.$$("[data-rack] button").length, 0);
  });

  test("the reveal shows the right order and how many cards each team got right", () => {
    const page = open();
    page.show(recorded("reveal.captain"));
    assert.equal(page.$$(".lu-answer li").length, 5);
    assert.match(page.text(), /3 cards in the right place\./);
    assert.equal(page.$$("[data-rack] button").length, 0);
  });

  test("the captain predicts with the die's values", () => {
    const page = open();
    page.show(recorded("predict.captain"));
    assert.equal(page.$("[data-picker]").dataset.picker, "predict");
    assert.deepEqual(page.$$("[data-picker] [data-value]").map((b) => b.dataset.value), ["1", "2", "3", "5"]);
    assert.equal(page.text("[data-action=confirm]"), "Choose a number first");
  });
});

test.describe("input: what taps and keys send and say", () => {
  test("two taps swap two cards: the rack is sent and the screen follows at once", async () => {
    const page = open();
    page.show(recorded("answer.captain"));
    page.click(page.$("[data-rack] [data-card='2']"));
    assert.equal(page.$("[data-rack] [data-card='2']").getAttribute("aria-pressed"), "true");
    assert.equal(page.announced.at(-1), "Card 2 picked up. Choose the card to swap it with.");
    page.click(page.$("[data-rack] [data-card='1']"));
    assert.deepEqual(page.sent, [{ type: "rack", order: [2, 1, 3, 4, 5] }]);
    assert.deepEqual(rackOf(page), [2, 1, 3, 4, 5]);
    assert.equal(page.announced.at(-1), "Cards 2 and 1 swapped.");
    await page.settle(true);
    assert.deepEqual(rackOf(page), [2, 1, 3, 4, 5], "our order stays until a view has it");
  });

  test("a digit key sends the focused card to that place; Escape puts a picked card back", () => {
    const page = open();
    page.show(recorded("answer.captain"));
    const card = page.$("[data-rack] [data-card='5']");
    const key = (target, name) => {
      const event = new page.window.Event("keydown", { bubbles: true, cancelable: true });
      Object.assign(event, { key: name });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    assert.ok(key(card, "1"));
    assert.deepEqual(page.sent, [{ type: "rack", order: [5, 1, 2, 3, 4] }]);
    assert.deepEqual(rackOf(page), [5, 1, 2, 3, 4]);
    page.click(page.$("[data-rack] [data-card='3']"));
    assert.equal(page.state.selected, 3);
    assert.ok(key(page.$("[data-rack] [data-card='3']"), "Escape"));
    assert.equal(page.state.selected, null);
  });

  test("the lock-in waits for the rack on its way, then confirms", async () => {
    const page = open();
    page.show(recorded("answer.captain"));
    page.click(page.$("[data-rack] [data-card='2']"));
    page.click(page.$("[data-rack] [data-card='1']"));
    page.click(page.$("[data-action=confirm]"));
    assert.deepEqual(page.sent.map((a) => a.type), ["rack"]);
    await page.settle(true);
    assert.deepEqual(page.sent.map((a) => a.type), ["rack", "confirm"]);
  });

  test("a refused action is shown and said", async () => {
    const page = open();
    page.show(recorded("predict.captain"));
    page.click(page.$("[data-picker] [data-value='3']"));
    assert.deepEqual(page.sent, [{ type: "predict", value: 3 }]);
    await page.settle(false, "Too late.");
    assert.equal(page.text(".lu-error"), "Too late.");
    assert.equal(page.announced.at(-1), "Too late.");
  });

  test("on a star turn a place then a card make a suggestion", () => {
    const page = open();
    page.show(recorded("star.captain"));
    page.click(page.$("[data-star-places] [data-place='2']"));
    assert.equal(page.$("[data-star-places] [data-place='2']").getAttribute("aria-pressed"), "true");
    assert.deepEqual(page.sent, []);
    page.click(page.$("[data-star-hand] [data-card='4']"));
    assert.deepEqual(page.sent, [{ type: "lay", card: 4, position: 2 }]);
    assert.equal(page.announced.at(-1), "Suggested: card 4 in place 2.");
  });

  test("the first picture says the mini-game and the phase", () => {
    const page = open();
    page.show(recorded("answer.captain"));
    assert.deepEqual(page.announced, ["Purple. Answer."]);
  });
});
