// Line-it's screen in Node.js on recorded view messages (tests/js/fixtures/lineit, made by
// `.venv/bin/python -m tests.js.record_lineit`): what its view draws for each viewer, and what its input
// sends for taps and keys. Played in a real browser, with drags and layout: tests/browser/test_lineit_*.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const { fixture, loadScreen } = require("./screen.js");

const SCRIPTS = ["words", "board", "view", "input"].map((part) => `js/games/lineit/${part}.js`);
const open = () => loadScreen("lineit", SCRIPTS);
const recorded = (name) => fixture("lineit", name);

test.describe("view: what each viewer sees", () => {
  test("the player to move sees the market as buttons, numbered, and the moves waiting for a pick", () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    const market = message.table.view.market;
    const cards = page.$$(".lineit-market button[data-card]");
    assert.deepEqual(cards.map((card) => card.dataset.card), market.map((card) => card.id));
    assert.ok(cards.every((card) => card.dataset.source === "market" && card.getAttribute("aria-pressed") === "false"));
    assert.equal(cards[0].getAttribute("aria-label"), `${market[0].face}, ${market[0].colour} ${market[0].symbol}`);
    assert.deepEqual(page.$$(".lineit-market .lineit-key").map((key) => key.textContent), ["1", "2", "3", "4", "5"]);
    assert.equal(page.text(".lineit-status__turn strong"), "Your turn");
    assert.match(page.text(".lineit-prompt"), /^Take one card from the market/);
    assert.deepEqual(page.$$(".lineit-actions button").map((b) => [b.dataset.action, b.disabled]), [["line", true], ["hand", true]]);
    assert.equal(page.$(".lineit").dataset.step, "take");
  });

  test("another player at the table sees the same market, but nothing to press", () => {
    const page = open();
    page.show(recorded("take.waiting"));
    assert.equal(page.$$("button[data-card], button[data-action]").length, 0);
    assert.equal(page.$$(".lineit-market .lineit-card").length, 5);
    assert.equal(page.text(".lineit-status__turn strong"), "Ava M.'s turn");
    assert.equal(page.text(".lineit-prompt"), "Ava M. is playing. Wait for your turn.");
  });

  test("the console draws one compact row per player, the projector every score and jackpot", () => {
    const console_ = open();
    console_.show(recorded("take.console"));
    assert.ok(console_.$(".lineit--compact"));
    assert.equal(console_.$$(".lineit-compact__table tbody tr").length, 3);
    assert.equal(console_.$$("button").length, 0);
    const projector = open();
    projector.show(recorded("take.projector"));
    assert.equal(projector.$$(".lineit-proj__player").length, 3);
    assert.equal(projector.$$(".lineit-proj__jackpot").length, 4);
    assert.equal(projector.text(".lineit-proj__turn"), "Ava M.'s turn");
  });

  test("after taking, the hand's cards are buttons and the turn may end", () => {
    const page = open();
    const message = recorded("after-with-hand.player");
    page.show(message);
    const hand = page.$$(".lineit-hand button[data-card]");
    assert.deepEqual(hand.map((card) => card.dataset.card), message.table.view.you.hand.map((card) => card.id));
    const moves = Object.fromEntries(page.$$(".lineit-actions button").map((b) => [b.dataset.action, b.disabled]));
    assert.deepEqual(moves, { play: true, score: false, end: false });
    assert.equal(page.$$(".lineit-market button[data-card]").length, 0, "the market is closed after taking");
  });

  test("with a full hand the pick may start a new line, and the hand is closed", () => {
    const page = open();
    page.show(recorded("take-full-hand.player"));
    assert.equal(page.text("[data-action=hand]"), "In my hand (full) H");
    assert.ok(page.$("[data-drop=new_line] [data-action=new_line]"));
    assert.ok(page.$(".lineit-hand").classList.contains("is-closed"));
  });

  test("the last play asks to score the line and finish", () => {
    const page = open();
    page.show(recorded("final.player"));
    assert.equal(page.text("[data-action=score]"), "Score my line and finish S");
    assert.equal(page.$("[data-action=end]"), null);
    assert.match(page.text(".lineit-prompt"), /^Last play/);
  });

  test("at the end every screen shows the scores, and the winner", () => {
    for (const name of ["over.player", "over.projector"]) {
      const page = open();
      const message = recorded(name);
      page.show(message);
      const outcome = message.table.view.outcome;
      assert.equal(page.$$(".lineit-scores tbody tr").length, 3, name);
      assert.equal(page.$$(".lineit-scores tr.is-winner").length, outcome.winners.length, name);
      assert.equal(page.$$("button").length, 0, name);
    }
  });

  test("a redraw morphs the screen: the nodes that stay are the same nodes", () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    const first = page.$$("button[data-card]");
    page.show({ ...message, table: { ...message.table, seq: 2 } });
    assert.deepEqual(page.$$("button[data-card]"), first);
    assert.equal(page.screen.draws, 2);
  });
});

test.describe("input: what taps and keys send", () => {
  test("a tap picks a market card, the line button takes it; nothing more is sent until the answer", async () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    const [card] = message.table.view.market;
    page.click(page.$(`button[data-card="${card.id}"]`));
    assert.equal(page.$(`button[data-card="${card.id}"]`).getAttribute("aria-pressed"), "true");
    assert.match(page.announced.at(-1), /^Picked 80 \(.+\)\. Put it in your line or in your hand\.$/);
    assert.deepEqual(Object.values(page.drafts), [{ source: "market", id: card.id }]);
    page.click(page.$("[data-action=line]"));
    assert.deepEqual(page.sent, [{ type: "take", card: card.id, to: "line" }]);
    assert.equal(page.$(".lineit-actions").getAttribute("aria-busy"), "true");
    assert.equal(page.$$("button[data-card]").length, 0, "no second pick while a move is on its way");
    page.key("h");
    assert.equal(page.sent.length, 1);
    await page.settle(true);
    assert.equal(page.state.selected, null);
    assert.equal(page.$(".lineit-actions").getAttribute("aria-busy"), "false");
  });

  test("keys: a number picks, H puts it in the hand; Escape drops a pick", () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    assert.equal(page.key("3"), true);
    assert.deepEqual(page.state.selected, { source: "market", id: message.table.view.market[2].id });
    page.key("Escape");
    assert.equal(page.state.selected, null);
    page.key("2");
    page.key("h");
    assert.deepEqual(page.sent, [{ type: "take", card: message.table.view.market[1].id, to: "hand" }]);
  });

  test("a move without a pick is refused on the screen, and nothing is sent", () => {
    const page = open();
    page.show(recorded("take.player"));
    page.key("l");
    assert.deepEqual(page.sent, []);
    assert.equal(page.text(".lineit-error"), "First pick a card from the market.");
    assert.equal(page.announced.at(-1), "First pick a card from the market.");
  });

  test("the server's refusal is shown and said, and the next message clears it", async () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    page.key("1");
    page.key("l");
    await page.settle(false, "That card does not fit your line.");
    assert.equal(page.text(".lineit-error"), "That card does not fit your line.");
    assert.equal(page.announced.at(-1), "That card does not fit your line.");
    assert.deepEqual(page.state.selected, { source: "market", id: message.table.view.market[0].id });
    page.show({ ...message, table: { ...message.table, seq: 2 } });
    assert.equal(page.$(".lineit-error"), null);
  });

  test("with a full hand, N scores the line and starts a new one with the pick", () => {
    const page = open();
    const message = recorded("take-full-hand.player");
    page.show(message);
    page.key("1");
    page.key("n");
    assert.deepEqual(page.sent, [{ type: "take", card: message.table.view.market[0].id, to: "new_line" }]);
  });

  test("after taking: a hand card is played with L, the turn ends with E, the line is scored with S", async () => {
    const page = open();
    const message = recorded("after-with-hand.player");
    page.show(message);
    const [card] = message.table.view.you.hand;
    page.key("1");
    page.key("l");
    assert.deepEqual(page.sent, [{ type: "play", card: card.id }]);
    await page.settle(true);
    page.key("e");
    await page.settle(true);
    page.key("s");
    assert.deepEqual(page.sent.slice(1), [{ type: "end" }, { type: "score" }]);
  });

  test("the move buttons send what they say", () => {
    const page = open();
    page.show(recorded("final.player"));
    page.click(page.$("[data-action=score]"));
    assert.deepEqual(page.sent, [{ type: "score" }]);
  });

  test("nobody else's keys or taps send anything, nor anything while the session is paused", () => {
    const waiting = open();
    waiting.show(recorded("take.waiting"));
    for (const key of ["1", "l", "h", "s", "e"]) waiting.key(key);
    assert.deepEqual(waiting.sent, []);
    const paused = open();
    paused.show(recorded("take.player"), { status: "paused" });
    paused.key("1");
    paused.key("l");
    assert.deepEqual(paused.sent, []);
    assert.equal(paused.text(".lineit-prompt"), "The game is paused. Wait for your teacher.");
  });

  test("the viewer's turn is announced with what to do, on the screen's first draw too", () => {
    const page = open();
    page.show(recorded("take.player"));
    assert.equal(page.announced.length, 1);
    assert.match(page.announced[0], /^Your turn\. Take one card from the market/);
  });

  test("each new move of the log is announced once, in the viewer's own words", () => {
    const page = open();
    const before = recorded("take.waiting");
    page.show(before);
    assert.deepEqual(page.announced, [], "a first draw tells no past moves");
    const after = recorded("after-with-hand.player");
    page.show({ ctx: before.ctx, table: { ...after.table, view: { ...after.table.view, you: before.table.view.you } } });
    const said = page.announced.join(" ");
    assert.match(said, /You put .+ in your line\./, "the viewer's own moves, in the second person");
    assert.match(said, /Cleo D\. took a card into their hand\.$/, "the newest last");
    const count = page.announced.length;
    page.show({ ctx: before.ctx, table: { ...after.table, view: { ...after.table.view, you: before.table.view.you } } });
    assert.equal(page.announced.length, count, "nothing new: nothing said");
  });

  test("a pick survives a reload within the same step, and is forgotten once the card is gone", () => {
    const page = open();
    const message = recorded("take.player");
    page.show(message);
    page.key("2");
    const reloaded = open();
    reloaded.drafts = page.drafts;
    reloaded.show(message);
    assert.deepEqual(reloaded.state.selected, { source: "market", id: message.table.view.market[1].id });
    const gone = message.table.view.market.filter((_card, index) => index !== 1);
    reloaded.show({ ...message, table: { ...message.table, seq: 2, view: { ...message.table.view, market: gone } } });
    assert.equal(reloaded.state.selected, null);
  });
});
