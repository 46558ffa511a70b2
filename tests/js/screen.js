// A game's screen in Node.js, for the unit tests of its view and input (node --test tests/js; pytest runs
// them through tests/js/test_node.py): a linkedom document holding the morph library, common.js and the
// game's scripts, loaded in the pages' order, and a fake page controller's ctx that keeps what the screen
// sends and says. Layout, focus and drags need a real browser: tests/browser covers those.
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { parseHTML } = require("linkedom");

const ROOT = path.resolve(__dirname, "..", "..");
const MORPH = path.join(ROOT, "node_modules", "idiomorph", "dist", "idiomorph.js");
const STATIC = path.join(ROOT, "static");

/** The scripts the pages load for `game` (its definition's screen_scripts). pytest passes them all in
 *  CLASSPLAY_SCREEN_SCRIPTS, so a test's list cannot drift from the pages'. */
function checkedScripts(game, scripts) {
  const given = process.env.CLASSPLAY_SCREEN_SCRIPTS;
  if (given) {
    const pages = JSON.parse(given)[game];
    if (JSON.stringify(pages) !== JSON.stringify(scripts)) {
      throw new Error(`${game}'s pages load ${JSON.stringify(pages)}, the test ${JSON.stringify(scripts)}`);
    }
  }
  return scripts;
}

/** A value of the page's realm as a plain one of the test's (objects made inside the vm have their own
 *  Object, which assert.deepStrictEqual tells apart). */
const plain = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/** A recorded view message: tests/js/fixtures/<game>/<name>.json, {ctx: {role, player, compact}, table}. */
function fixture(game, name) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures", game, `${name}.json`), "utf8"));
}

/** A fresh page with `game`'s screen loaded (its scripts under static/, in load order). */
function loadScreen(game, scripts) {
  const { window } = parseHTML('<!doctype html><html lang="en" dir="ltr"><body><main id="root"></main></body></html>');
  const context = vm.createContext(window);
  Object.assign(window, {
    CSS: { escape: (text) => String(text).replace(/["\\]/g, "\\$&") },
    requestAnimationFrame: () => 0,
    cancelAnimationFrame: () => {},
    scrollY: 1, // a reader's scroll: the screen does not bring itself into view
  });
  let registered = null;
  window.Classplay = { registerGame: (name, module) => (registered = { name, module }) };
  for (const file of [MORPH, path.join(STATIC, "js", "games", "common.js"), ...checkedScripts(game, scripts).map((s) => path.join(STATIC, s))]) {
    vm.runInContext(fs.readFileSync(file, "utf8"), context, { filename: file });
  }
  if (!registered || registered.name !== game) throw new Error(`${game}'s scripts registered no screen`);
  return new Page(window, registered.module);
}

/** One page showing one table to one viewer, with the fake ctx. */
class Page {
  constructor(window, module) {
    this.window = window;
    this.document = window.document;
    this.module = module;
    this.root = this.document.getElementById("root");
    this.outbox = []; // [{action, resolve, reject}] not yet answered
    this.sent = []; // every action sent
    this.announced = [];
    this.drafts = {};
    this.screen = null;
  }

  ctx({ role, player = null, compact = false }, session = {}) {
    return {
      role,
      player,
      compact,
      session: { id: 1, game: "test", title: "Test", status: "running", participants: [], ...session },
      act: (action) => {
        this.sent.push(plain(action));
        return new Promise((resolve, reject) => this.outbox.push({ action, resolve, reject }));
      },
      countdown: (element, deadline) => {
        element.textContent = deadline == null ? "" : "0:30";
      },
      serverNow: () => 0,
      announce: (text) => this.announced.push(text),
      draft: (key) => this.drafts[key] || null,
      saveDraft: (key, value) => {
        this.drafts[key] = plain(value);
      },
      gettext: (text) => text,
      ngettext: (singular, plural, n) => (n === 1 ? singular : plural),
      interpolate: (format, values) => format.replace(/%\((\w+)\)s/g, (_m, key) => String(values[key])),
    };
  }

  /** Renders a recorded message ({ctx, table}) as the page controller does; returns the screen. */
  show(recorded, session) {
    this.screen = this.module.render(this.root, recorded.table, this.ctx(recorded.ctx, session));
    return this.screen;
  }

  /** Answers the oldest action in flight (ok, or refused with the server's `message`); resolves once the
   *  screen's own continuation has run. */
  async settle(ok, message) {
    const { resolve, reject } = this.outbox.shift();
    if (ok) resolve({ seq: 99, duplicate: false });
    else reject({ code: "illegal", message });
    await new Promise((done) => setTimeout(done, 0));
  }

  /** The screen's input state, as plain values. */
  get state() {
    return plain(this.screen.state);
  }

  $(selector) {
    return this.root.querySelector(selector);
  }

  $$(selector) {
    return [...this.root.querySelectorAll(selector)];
  }

  text(selector) {
    const element = selector ? this.$(selector) : this.root;
    return element ? element.textContent.replace(/\s+/g, " ").trim() : null;
  }

  click(element) {
    if (!element) throw new Error("nothing to click");
    element.dispatchEvent(new this.window.Event("click", { bubbles: true }));
  }

  /** A key pressed with the focus nowhere in particular (on the body), as after a tap. */
  key(key) {
    const event = new this.window.Event("keydown", { bubbles: true, cancelable: true });
    Object.assign(event, { key });
    this.document.body.dispatchEvent(event);
    return event.defaultPrevented;
  }
}

module.exports = { fixture, loadScreen, plain };
