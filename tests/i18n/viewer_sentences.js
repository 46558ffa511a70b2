// The sentences each game module says about the viewer (tests/i18n/test_viewer_sentences.py runs it).
const vm = require("vm");
const [catalogFile, gamesDir, direction] = process.argv.slice(2);
globalThis.window = globalThis;
globalThis.addEventListener = () => {};
globalThis.document = { readyState: "complete", documentElement: { lang: "en", dir: direction || "ltr" }, addEventListener() {} };
const catalog = require("fs").readFileSync(catalogFile, "utf8");
if (catalog) vm.runInThisContext(catalog);
else globalThis.gettext = (text) => (text === "You" ? "«You»" : text);  // the viewer's word, marked
const games = {};
globalThis.Classplay = { registerGame(name, module) { games[name] = module; } };
require(gamesDir + "/common.js");
for (const part of ["words", "board", "view", "fit", "input"]) require(`${gamesDir}/wordup/${part}.js`);
for (const part of ["words", "geometry", "board", "view", "fit", "input"]) require(`${gamesDir}/mindlines/${part}.js`);

const said = [];
const say = (where, text) => said.push([where, text]);

// Word Up: Ava (p0) reads what she did herself.
const W = games.wordup.helpers;
const base = {
  players: [{ id: "p0", name: "Ava M.", position: 3, tokens: {}, total: 0 },
            { id: "p1", name: "Ben K.", position: 5, tokens: {}, total: 0 }],
  categories: [{ id: "missing_word", colour: "orange", icon: "gap" }, { id: "crossword", colour: "green", icon: "grid" }],
  board: Array.from({ length: 40 }, (_v, index) => ({ index, kind: "bonus" })),
  you: { id: "p0" },
};
const ctx = { role: "player", player: "p0" };
const events = [
  { type: "first_player" }, { type: "roll", total: 7, to: 5 }, { type: "category_chosen", category: "crossword" },
  { type: "answered", correct: true }, { type: "answered", correct: false, response: "x" },
  { type: "answered", correct: false, response: null }, { type: "teacher_accept" }, { type: "card_no_choice" },
  { type: "card", card: { kind: "stop_or_lose" } }, { type: "move", to: 21 }, { type: "timeout" },
  { type: "exchange", with: "p1", give: "missing_word", take: "crossword" },
  ...[1, 2, -1, -2].map((change) => ({ type: "tokens", change, category: "missing_word" })),
];
for (const e of events) say(`wordup ${e.type}`, W.eventText(base, ctx, { ...e, player: "p0" }));
say("wordup roll line", W.rollLine(base, ctx, { player: "p0", total: 7 }));
say("wordup answer label", W.answeredLabel(base, ctx, "p0"));
for (const winners of [["p0"], ["p0", "p1"]]) {
  say("wordup outcome", W.outcomeLine({ ...base, phase: "over", outcome: { winners, reason: "target" } }, ctx));
}

// Mind the Lines: Ava (a) reads about her own drawing and exclusions.
const M = games.mindlines.helpers;
const view = { players: [{ id: "a", name: "Ava M." }, { id: "b", name: "Ben K." }] };
say("mindlines hidden drawing", M.drawingLabel(view, { player: "a", hidden: true, strokes: null }, "a", null));
for (const count of [0, 1, 3]) {
  const strokes = Array.from({ length: count }, () => [0, 1]);
  say("mindlines drawing", M.drawingLabel(view, { player: "a", shown: true, strokes }, "a", null));
}
say("mindlines drawn by", M.drawnByText(view, "a", "a"));
say("mindlines excluded by", M.excludedByText(view, "a", "a"));
say("mindlines exclusion", M.exclusionText(view, { player: "a", text: "gato" }, "a"));
// (and the themes on the concept card: a shipped one in the device's language, a teacher's as written)
say("mindlines theme", M.themeName("animals"));
say("mindlines own theme", M.themeName("week 12"));
// (and sentences about somebody else, for the isolation of names and numbers on an Arabic page)
say("wordup other roll", W.eventText(base, ctx, { type: "roll", total: 7, to: 5, player: "p1" }));
say("wordup other timeout", W.eventText(base, ctx, { type: "timeout", player: "p1" }));
say("mindlines other exclusion", M.exclusionText(view, { player: "b", text: "gato" }, "a"));
process.stdout.write(JSON.stringify(said));
