// The screen contract of static/js/games/common.js (docs/frontend.md, "Game screens"), with a screen of
// one counter: when the view and each hook of the input run, that a redraw keeps the nodes that stay,
// that a hold defers draws, that a redraw never writes a style attribute (the
// Content-Security-Policy refuses them) and leaves a disclosure as the player left it. Focus is the
// browser tests' (linkedom has none).
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { parseHTML } = require("linkedom");

const ROOT = path.resolve(__dirname, "..", "..");

function page() {
  const { window } = parseHTML('<!doctype html><html lang="en"><body><main id="root"></main></body></html>');
  const context = vm.createContext(window);
  window.CSS = { escape: (text) => text };
  for (const file of ["node_modules/idiomorph/dist/idiomorph.js", "static/js/games/common.js"]) {
    vm.runInContext(fs.readFileSync(path.join(ROOT, file), "utf8"), context, { filename: file });
  }
  return window;
}

/** A screen that shows a count and a button; the calls of its hooks go to `calls`. */
function counter(window, calls) {
  const { h } = window.ClassplayUI;
  return {
    state: () => ({ clicks: 0 }),
    view: (screen) => {
      calls.push("view");
      const count = screen.table.view.count + screen.state.clicks;
      return h(
        "div",
        { class: "counter", style: count > 2 ? "color: red" : null },
        h("output", { text: String(count) }),
        h("button", { type: "button", dataset: { action: "add", fk: "add" } }, "Add"),
      );
    },
    input: {
      bind: (screen) => {
        calls.push("bind");
        screen.root.addEventListener("click", (event) => {
          if (!event.target.closest("[data-action=add]")) return;
          screen.state.clicks += 1;
          screen.redraw();
        });
      },
      receive: (_screen, previous) => calls.push(previous ? "receive" : "receive first"),
      drawn: (screen) => calls.push(`drawn ${screen.draws}`),
    },
  };
}

const message = (count, seq = 1) => ({ table: 1, seq, status: "playing", view: { count } });
const ctx = { role: "player", player: "p1", compact: false };

test("a message is received, then drawn; the input is bound once per root", () => {
  const window = page();
  const calls = [];
  const module = window.ClassplayUI.screenModule("counter", counter(window, calls));
  const root = window.document.getElementById("root");
  module.render(root, message(1), ctx);
  module.render(root, message(2, 2), ctx);
  assert.deepEqual(calls, ["bind", "receive first", "view", "drawn 1", "receive", "view", "drawn 2"]);
  assert.equal(root.querySelector("output").textContent, "2");
  const other = window.document.createElement("section");
  const screen = module.render(other, message(5), ctx);
  assert.notEqual(screen, module.render(root, message(2, 3), ctx), "each root has its own screen");
  assert.equal(calls.filter((call) => call === "bind").length, 2);
});

test("a redraw morphs: the nodes that stay are the same nodes, with their new text", () => {
  const window = page();
  const module = window.ClassplayUI.screenModule("counter", counter(window, []));
  const root = window.document.getElementById("root");
  module.render(root, message(1), ctx);
  const [output, button] = [root.querySelector("output"), root.querySelector("button")];
  button.dispatchEvent(new window.Event("click", { bubbles: true }));
  assert.equal(root.querySelector("output"), output);
  assert.equal(root.querySelector("button"), button);
  assert.equal(output.textContent, "2");
});

test("while held, draws wait; the release draws once what was held back", () => {
  const window = page();
  const calls = [];
  const module = window.ClassplayUI.screenModule("counter", counter(window, calls));
  const root = window.document.getElementById("root");
  const screen = module.render(root, message(1), ctx);
  screen.hold();
  module.render(root, message(7, 2), ctx);
  screen.redraw();
  assert.equal(root.querySelector("output").textContent, "1");
  calls.length = 0;
  screen.release();
  assert.deepEqual(calls, ["view", "drawn 2"]);
  assert.equal(root.querySelector("output").textContent, "7");
  screen.release();
  assert.equal(calls.length, 2, "nothing held back: nothing drawn");
});

test("a redraw sets styles through the CSSOM, never as a style attribute", () => {
  const window = page();
  const written = [];
  // (the morph copies attributes as nodes; linkedom's CSSOM writes the attribute by name, as it may)
  const setAttributeNode = window.Element.prototype.setAttributeNode;
  window.Element.prototype.setAttributeNode = function (attribute) {
    if (attribute.name === "style") written.push(attribute.value);
    return setAttributeNode.call(this, attribute);
  };
  const module = window.ClassplayUI.screenModule("counter", counter(window, []));
  const root = window.document.getElementById("root");
  module.render(root, message(1), ctx);
  module.render(root, message(3, 2), ctx);
  assert.equal(root.querySelector(".counter").style.color, "red");
  module.render(root, message(1, 3), ctx);
  assert.equal(root.querySelector(".counter").style.color, "");
  assert.deepEqual(written, []);
});

test("a redraw leaves a disclosure open or closed as the player left it", () => {
  const window = page();
  const { h } = window.ClassplayUI;
  const module = window.ClassplayUI.screenModule("disclosure", {
    state: () => ({}),
    input: { bind: () => {} },
    view: (screen) =>
      h("details", { class: "more" }, h("summary", {}, "More"), h("p", {}, String(screen.table.view.count))),
  });
  const root = window.document.getElementById("root");
  module.render(root, message(1), ctx);
  const details = root.querySelector("details");
  details.setAttribute("open", ""); // (what a click on its summary does; linkedom has no reflection)
  module.render(root, message(2, 2), ctx);
  assert.equal(root.querySelector("details"), details);
  assert.equal(details.hasAttribute("open"), true);
  assert.equal(details.querySelector("p").textContent, "2");
  details.removeAttribute("open");
  module.render(root, message(3, 3), ctx);
  assert.equal(details.hasAttribute("open"), false);
});

test("the pieces of one game's scripts are shared by name", () => {
  const window = page();
  window.ClassplayUI.pieces("oddone").view = "the view";
  assert.equal(window.ClassplayUI.pieces("oddone").view, "the view");
  assert.deepEqual(Object.keys(window.ClassplayUI.pieces("other")), []);
});
