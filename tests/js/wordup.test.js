// Word Up's screen in Node.js on recorded view messages (tests/js/fixtures/wordup, made by
// `.venv/bin/python -m tests.js.record_wordup`): what its view draws for each viewer, and what its input
// sends for taps, keys and typing. In a real browser, with sound, focus and layout: tests/browser/test_wordup_*.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const { fixture, loadScreen } = require("./screen.js");

const SCRIPTS = ["words", "board", "view", "fit", "input"].map((part) => `js/games/wordup/${part}.js`);
const open = () => loadScreen("wordup", SCRIPTS);
const recorded = (name) => fixture("wordup", name);
const moves = (page) => page.$$("button[data-move]").map((b) => JSON.parse(b.dataset.move));

test.describe("view: what each viewer sees", () => {
  test("the player to roll sees the board, whose turn it is and one Roll button with its key", () => {
    const page = open();
    page.show(recorded("roll.player"));
    assert.equal(page.$$(".wu-board .wu-square").length, 40);
    assert.equal(page.text(".wu-head .wu-status"), "Your turn: roll the dice.");
    assert.deepEqual(moves(page), [{ type: "roll" }]);
    assert.equal(page.$(".wu-roll").dataset.key, "r");
    assert.equal(page.$(".wu-root").dataset.phase, "roll");
  });

  test("the answerer gets the answer box; the other player, the console and the projector nothing to press", () => {
    const page = open();
    const message = recorded("missing-word.player");
    page.show(message);
    assert.ok(page.$(".wu-answer-form .wu-input"));
    assert.equal(page.text(".wu-counter"), `0 of ${message.table.view.question.letters} letters`);
    for (const name of ["missing-word.waiting", "missing-word.console", "missing-word.projector"]) {
      const other = open();
      other.show(recorded(name));
      assert.equal(other.$$("button, input, select").length, 0, name);
      assert.ok(other.$(".wu-question, .wu-compact-q"), name);
    }
  });

  test("a refused answer: the console may accept it, the answerer reads the right answer", () => {
    const console_ = open();
    console_.show(recorded("reveal.console"));
    assert.ok(console_.$(".wu-compact.wu-root"));
    assert.deepEqual(moves(console_), [{ type: "accept", question: 1 }]);
    const player = open();
    const message = recorded("reveal.player");
    player.show(message);
    assert.equal(player.text(".wu-right-answer"), message.table.view.last_result.answers.join(", "));
    assert.equal(player.$$("button[data-move]").length, 0);
  });

  test("at the end every screen says who won, and nothing can be pressed", () => {
    for (const name of ["over.player", "over.projector"]) {
      const page = open();
      page.show(recorded(name));
      assert.ok(page.text(".wu-over"), name);
      assert.ok(page.$$(".wu-winner-row").length >= 1, name);
      assert.equal(page.$$("button[data-move]").length, 0, name);
    }
  });

  test("a redraw morphs the screen: the nodes that stay are the same nodes", () => {
    const page = open();
    const message = recorded("missing-word.player");
    page.show(message);
    const input = page.$(".wu-input");
    const squares = page.$$(".wu-square");
    page.show({ ...message, table: { ...message.table, seq: message.table.seq + 1 } });
    assert.equal(page.$(".wu-input"), input);
    assert.deepEqual(page.$$(".wu-square"), squares);
    assert.equal(page.screen.draws, 2);
  });
});

test.describe("input: what taps, keys and typing send", () => {
  test("R rolls; nothing more is sent until the next message, which enables the move again", async () => {
    const page = open();
    const message = recorded("roll.player");
    page.show(message);
    assert.equal(page.key("r"), true);
    assert.deepEqual(page.sent, [{ type: "roll" }]);
    assert.equal(page.$(".wu-roll").disabled, true);
    page.key("r");
    assert.equal(page.sent.length, 1);
    await page.settle(true);
    assert.equal(page.$(".wu-roll").disabled, true, "still waiting for the table's next message");
    page.show({ ...message, table: { ...message.table, seq: message.table.seq + 1 } });
    assert.equal(page.$(".wu-roll").disabled, false);
  });

  test("the typed answer is kept as a draft, counted, and sent trimmed", () => {
    const page = open();
    const message = recorded("missing-word.player");
    page.show(message);
    const input = page.$(".wu-input");
    input.value = " abc ";
    input.dispatchEvent(new page.window.Event("input", { bubbles: true }));
    const serial = message.table.view.question.serial;
    assert.deepEqual(page.drafts, { [`wordup:7:${serial}`]: " abc " });
    assert.equal(page.state.typed[serial], " abc ");
    assert.match(page.text(".wu-counter"), /^3 of \d+ letters$/);
    page.$(".wu-answer-form").dispatchEvent(new page.window.Event("submit", { bubbles: true, cancelable: true }));
    assert.deepEqual(page.sent, [{ type: "answer", answer: "abc" }]);
  });

  test("a draft comes back after a reload", () => {
    const message = recorded("missing-word.player");
    const page = open();
    page.drafts[`wordup:7:${message.table.view.question.serial}`] = "hal";
    page.show(message);
    assert.equal(page.$(".wu-input").value, "hal");
  });

  test("a refused move shows and says the server's reason, until the step changes", async () => {
    const page = open();
    const message = recorded("missing-word.player");
    page.show(message);
    page.$(".wu-answer-form").dispatchEvent(new page.window.Event("submit", { bubbles: true, cancelable: true }));
    await page.settle(false, "Time is up for that move.");
    assert.equal(page.text(".wu-move .wu-problem"), "Time is up for that move.");
    assert.equal(page.announced.at(-1), "Time is up for that move.");
    assert.equal(page.$(".wu-send").disabled, false);
    page.show({ ...message, table: { ...message.table, seq: message.table.seq + 1 } });
    assert.equal(page.text(".wu-move .wu-problem"), "Time is up for that move.");
    page.show(recorded("roll.player"));
    assert.equal(page.text(".wu-move .wu-problem"), "");
  });

  test("a number key presses that choice of a multiple choice question", () => {
    const page = open();
    page.show(recorded("multiple-choice.player"));
    assert.equal(page.$$(".wu-mc .wu-option").length, 3);
    page.key("2");
    assert.deepEqual(page.sent, [{ type: "answer", choice: 1 }]);
  });

  test("the teacher's Accept is sent, and said once the server took it", async () => {
    const page = open();
    page.show(recorded("reveal.console"));
    page.click(page.$(".wu-accept-button"));
    assert.deepEqual(page.sent, [{ type: "accept", question: 1 }]);
    await page.settle(true);
    assert.equal(page.announced.at(-1), "Answer accepted.");
  });

  test("a new step is announced to the player, once", () => {
    const page = open();
    const message = recorded("roll.player");
    page.show(message);
    assert.deepEqual(page.announced, ["Your turn: roll the dice."]);
    page.show({ ...message, table: { ...message.table, seq: message.table.seq + 1 } });
    assert.equal(page.announced.length, 1);
  });
});
