// Line-Up's screen in Node.js on recorded view messages (tests/js/fixtures/faces, made by
// `.venv/bin/python -m tests.js.record_faces`): what its view draws for each viewer, and what its input
// sends and says for taps and keys. Played in a real browser, with focus and layout:
// tests/browser/test_faces_*.py.
const test = require("node:test");
const assert = require("node:assert/strict");
const { fixture, loadScreen } = require("./screen.js");

const SCRIPTS = ["words", "art", "board", "view", "input"].map((part) => `js/games/faces/${part}.js`);
const open = () => loadScreen("faces", SCRIPTS);
const recorded = (name) => fixture("faces", name);

/** The same message as `message`, changed: {status, view: {...}} are merged in. */
function changed(message, { status, seq, view }) {
  const table = { ...message.table, seq: seq || message.table.seq + 1, status: status || message.table.status };
  return { ...message, table: { ...table, view: { ...message.table.view, ...view } } };
}

test.describe("view: what each viewer sees", () => {
  test("the student to move sees their faces as buttons that name them, and the whole pad", () => {
    const page = open();
    const message = recorded("ask.player");
    const view = message.table.view;
    page.show(message);
    const faces = page.$$(".fc-board button[data-action=name]");
    assert.deepEqual(faces.map((face) => face.dataset.face), view.board.map((face) => face.id));
    assert.ok(faces.every((face) => face.dataset.fk === "face-" + face.dataset.face));
    const pad = page.$$(".fc-pad button[data-action=ask]");
    assert.deepEqual(pad.map((button) => button.dataset.question), view.pad.map((item) => item.id));
    assert.ok(pad.every((button) => !button.disabled));
    assert.equal(page.text(".fc-turn"), "Your turn: ask one question or name a face. 0:30");
    assert.equal(page.$(".fc-turn").dataset.fk, "status");
    assert.equal(page.text(".fc-card .fc-card-name"), view.your_face.name);
    assert.equal(page.text(".fc-board-wrap h3"), "Your board: 24 faces left · tap a face (or type its letter) to name it");
    assert.equal(page.$$(".fc-card svg[role=img]").length, 1, "the own card is a described picture");
  });

  test("the other student sees the same kind of board, as pictures, and a pad they cannot use yet", () => {
    const page = open();
    page.show(recorded("ask.waiting"));
    assert.equal(page.$$(".fc-board button").length, 0);
    assert.equal(page.$$(".fc-board .fc-face[role=img]").length, 24);
    assert.ok(page.$$(".fc-pad button").every((button) => button.disabled));
    assert.equal(page.text(".fc-turn"), "Ava M.'s turn. Get ready. 0:30");
    assert.equal(page.text(".fc-pad-wrap h3"), "The question pad");
  });

  test("the console draws one line per player, the full board a table with the clock, neither a button", () => {
    const console_ = open();
    console_.show(recorded("ask.console"));
    assert.equal(console_.$$(".fc-teacher-list li").length, 2);
    assert.equal(console_.text(".fc-more summary"), "Questions and rounds");
    assert.ok(!console_.$(".fc-clock"), "the table card's header shows the console's clock");
    assert.equal(console_.$$("button").length, 0);
    const teacher = open();
    teacher.show(recorded("ask.teacher"));
    assert.equal(teacher.$$(".fc-teacher-table tbody tr").length, 2);
    assert.equal(teacher.text(".fc-clock"), "0:30");
    assert.equal(teacher.$$("button").length, 0);
  });

  test("the projector shows the score and the round, and never a face", () => {
    const page = open();
    const message = recorded("ask.projector");
    page.show(message);
    assert.equal(page.$$("svg").length, 0);
    assert.match(page.text(".fc-round"), /^Round 1 · first to 2 · Ava M\. to move$/);
    assert.equal(page.$$(".fc-score-side").length, 2);
    const board = recorded("ask.player").table.view.board;
    for (const face of board) assert.ok(!page.text().includes(face.name + ":"), face.name);
  });

  test("after a question, the asker sees its answer and split, with nothing stray after it", () => {
    const page = open();
    page.show(recorded("answered.asker"));
    assert.equal(page.text(".fc-board-wrap h3"), "Your board: 13 faces left");
    assert.equal(page.$$(".fc-board li.is-out").length, 11);
    assert.equal(page.text(".fc-feedback"), "Does your person have a fringe? No" + "It kept 13 faces and removed 11." + "Split quality: 100 % of the best on the pad");
    assert.equal(page.text(".fc-turn"), "Ben K.'s turn. Get ready. 0:30");
    assert.ok(page.$("[data-question=fringe]").classList.contains("is-asked"));
  });

  test("the other student sees the question that was asked, its answer, and the asker's board", () => {
    const page = open();
    page.show(recorded("answered.player"));
    assert.equal(page.text(".fc-their-last"), "Ava M. asked: Does your person have a fringe? No");
    assert.equal(page.text(".fc-theirs h3"), "Ava M.'s board: 13 faces left");
    assert.equal(page.$$(".fc-history-list li").length, 1);
    assert.equal(page.text(".fc-turn"), "Your turn: ask one question or name a face. 0:30");
  });

  test("between rounds: the round's result with both faces, and Ready", () => {
    const page = open();
    page.show(recorded("reveal.player"));
    assert.equal(page.text(".fc-result h3"), "Ben K. won round 1.");
    assert.equal(page.$$(".fc-result .fc-mini svg[role=img]").length, 2);
    assert.equal(page.$("[data-action=ready]").disabled, false);
    assert.equal(page.text(".fc-ready .fc-clock"), "0:30");
    const projector = open();
    projector.show(recorded("reveal.projector"));
    assert.deepEqual(projector.$$(".fc-round-marks li").map((li) => li.textContent), ["Round 1: Ben K."]);
  });

  test("at the end: who won and how, the seed to check, and nothing left to press but the check", () => {
    const loser = open();
    loser.show(recorded("over.player"));
    assert.equal(loser.text(".fc-result.is-match h3"), "Ben K. won the match.");
    assert.equal(loser.text(".fc-result.is-match h3 + p"), "Ben K. won 2 rounds to 0.");
    assert.ok(!loser.$(".fc-resign"));
    assert.equal(loser.$("a[href='/games/faces/verify/7/']").textContent, "Verify this match");
    assert.equal(loser.$$(".fc-rounds tbody tr").length, 2);
    const winner = open();
    winner.show(recorded("over.other"));
    assert.equal(winner.text(".fc-result.is-match h3"), "You won the match!");
    assert.equal(winner.$$("button").length, 0);
    const projector = open();
    projector.show(recorded("over.projector"));
    assert.match(projector.text(".fc-round"), /^Match over · Ben K\. won the match$/);
    const console_ = open();
    console_.show(recorded("over.console"));
    assert.equal(console_.text(".fc-result-line"), "Ben K. won 2 rounds to 0.");
  });

  test("a match the teacher ended says so, once, and keeps its rounds", () => {
    const page = open();
    const message = recorded("reveal.player");
    page.show(message);
    page.show(changed(message, { status: "ended" }));
    assert.equal(page.text(".fc-result.is-ended h3"), "Your teacher ended this match.");
    assert.equal(page.text(".fc-round"), "Ended by the teacher");
    assert.equal(page.$$(".fc-rounds tbody tr").length, 1);
    assert.equal(page.announced.at(-1), "Your teacher ended this match.");
  });

  test("a redraw morphs the screen: the nodes that stay are the same nodes", () => {
    const page = open();
    const message = recorded("ask.player");
    page.show(message);
    const first = page.$$("button[data-action]");
    page.show(changed(message, {}));
    assert.deepEqual(page.$$("button[data-action]"), first);
    assert.equal(page.screen.draws, 2);
  });

  test("a paused clock says the time it has left", () => {
    const page = open();
    const message = recorded("ask.player");
    page.show(changed(message, { view: { clock: { deadline: null, remaining: 41.2, paused: true } } }));
    assert.equal(page.text(".fc-turn .fc-clock"), "42 s left (paused)");
  });
});

test.describe("input: what taps and keys send and say", () => {
  test("a question of the pad is asked once: nothing more is sent until the answer", async () => {
    const page = open();
    page.show(recorded("ask.player"));
    page.click(page.$("[data-question=glasses]"));
    page.click(page.$("[data-question=hat]"));
    assert.deepEqual(page.sent, [{ type: "ask", question: "glasses" }]);
    await page.settle(true);
    assert.ok(!page.$(".fc-error"));
    page.click(page.$("[data-question=hat]"));
    assert.equal(page.sent.length, 2);
  });

  test("the server's refusal is shown and said, and stays until the game moves on", async () => {
    const page = open();
    const message = recorded("ask.player");
    page.show(message);
    page.click(page.$("[data-question=glasses]"));
    await page.settle(false, "Time is up for this turn.");
    assert.equal(page.$(".fc-error").getAttribute("role"), "alert");
    assert.equal(page.text(".fc-error"), "Time is up for this turn.");
    assert.equal(page.announced.at(-1), "Time is up for this turn.");
    page.show(changed(message, {}));
    assert.equal(page.text(".fc-error"), "Time is up for this turn.", "the same turn: still there");
    page.show(recorded("answered.asker"));
    assert.ok(!page.$(".fc-error"), "the turn passed: gone");
  });

  test("a letter names a face, asked first: Escape cancels, Yes sends it", async () => {
    const page = open();
    const message = recorded("ask.player");
    page.show(message);
    const face = message.table.view.board[4];
    assert.equal(page.key(face.id.toLowerCase()), true);
    assert.equal(page.$("[role=alertdialog] h3").textContent, `Name ${face.name}?`);
    assert.equal(page.$("[data-action=confirm]").textContent, `Yes, name ${face.name}`);
    page.key("Escape");
    assert.ok(!page.$("[role=alertdialog]"));
    assert.deepEqual(page.sent, []);
    page.key(face.id.toLowerCase());
    page.click(page.$("[data-action=confirm]"));
    assert.deepEqual(page.sent, [{ type: "name", face: face.id }]);
    await page.settle(true);
    assert.ok(!page.$("[role=alertdialog]"));
  });

  test("a tap on a face asks too, and Cancel sends nothing", () => {
    const page = open();
    const message = recorded("ask.player");
    page.show(message);
    const face = message.table.view.board[0];
    page.click(page.$(`[data-action=name][data-face=${face.id}]`));
    assert.ok(page.$("[role=alertdialog]"));
    page.click(page.$("[data-action=cancel]"));
    assert.ok(!page.$("[role=alertdialog]"));
    assert.deepEqual(page.sent, []);
  });

  test("a face already ruled out, or a letter off the turn, names nothing", () => {
    const message = recorded("answered.asker");
    const view = message.table.view;
    const waiting = open();
    waiting.show(message);
    assert.equal(waiting.key(view.your_board.left[0].toLowerCase()), false, "not their turn");
    const asking = open();
    asking.show(changed(message, { view: { your_turn: true, turn: view.you } }));
    assert.equal(asking.key(view.your_board.greyed[0].toLowerCase()), false, "a face already ruled out");
    assert.equal(asking.key(view.your_board.left[0].toLowerCase()), true);
    assert.deepEqual([...waiting.sent, ...asking.sent], []);
  });

  test("a naming waiting for Yes is dropped when the turn passes", () => {
    const page = open();
    const message = recorded("answered.player");
    page.show(message);
    page.key(message.table.view.board[0].id.toLowerCase());
    assert.ok(page.$("[role=alertdialog]"));
    page.show(changed(message, { view: { your_turn: false, turn: "p1" } }));
    assert.ok(!page.$("[role=alertdialog]"));
    assert.equal(page.state.confirm, null);
  });

  test("Resign asks first: Keep playing sends nothing, Yes, resign sends it", () => {
    const page = open();
    page.show(recorded("ask.waiting"));
    page.click(page.$("[data-action=resign]"));
    assert.equal(page.text(".fc-resign-confirm > span"), "Resign and lose the match?");
    page.click(page.$("[data-action=resign-no]"));
    assert.ok(page.$("[data-action=resign]"));
    assert.deepEqual(page.sent, []);
    page.click(page.$("[data-action=resign]"));
    page.click(page.$("[data-action=resign-yes]"));
    assert.deepEqual(page.sent, [{ type: "resign" }]);
  });

  test("Ready is sent, and said once the server has it", async () => {
    const page = open();
    page.show(recorded("reveal.player"));
    page.click(page.$("[data-action=ready]"));
    assert.deepEqual(page.sent, [{ type: "ready" }]);
    await page.settle(true);
    assert.equal(page.announced.at(-1), "Ready.");
  });

  test("the turn is said on the first draw; the other's question and answer when it comes, then the turn", () => {
    const page = open();
    page.show(recorded("ask.waiting"));
    assert.deepEqual(page.announced, ["Ava M.'s turn. Get ready."]);
    page.show(recorded("answered.player"));
    assert.equal(page.announced.at(-1), "Ava M. asked: Does your person have a fringe? Answer: no. They have 13 faces left. Your turn.");
    page.show(changed(recorded("answered.player"), {}));
    assert.equal(page.announced.length, 2, "nothing new: nothing said");
  });

  test("the asker hears the answer to their question, and the end of the round", () => {
    const page = open();
    page.show(recorded("ask.player"));
    page.show(recorded("answered.asker"));
    assert.equal(page.announced.at(-1), "Answer: no. It kept 13 faces and removed 11. Split quality 100 %.");
    page.show(recorded("reveal.player"));
    assert.match(page.announced.at(-1), / Ben K\. won round 1\. Their face was \S+\.$/);
  });

  test("the console and the projector say nothing and send nothing", () => {
    for (const name of ["ask.console", "ask.teacher", "ask.projector"]) {
      const page = open();
      page.show(recorded(name));
      page.key("a");
      assert.deepEqual(page.announced, [], name);
      assert.deepEqual(page.sent, [], name);
    }
  });
});
