"""One stand-in for the live runtime (session.js and live.js), for the browser tests that drive a game's
module directly: a page holding only the site's and the game's CSS, the shared module
(static/js/games/common.js, with the morph library it uses), the game's scripts and a fake page
controller, so the test plays the server.

On the page:

* ``window.setupCtx(role, player, compact)``: the ``ctx`` of docs/frontend.md for that viewer (``act``
  puts the action in the outbox; ``countdown`` writes "0:30"; ``announce`` and ``saveDraft`` keep what
  they are given in ``window.announced`` and ``window.drafts``);
* ``window.draw(table)``: renders a table's message in ``#root``; ``window.drawMany(items)`` renders
  ``[[id, role, player, compact, table], ...]`` in a root each and returns their texts;
* ``window.takeOutbox()``: the actions sent since the last call, ``[{id, action}]``; ``window.sent`` keeps
  every one with the time it was sent;
* ``window.settle(id, ok, message, seq)``: acknowledges or refuses one; resolves once the screen's own
  continuation of the answer (a queued send, a redraw) has run, so the test never looks in between;
* ``window.errors``: script errors and unhandled rejections; ``window.gameName``, ``window.gameModule``.
"""

from __future__ import annotations

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
GAMES_JS = STATIC / "js" / "games"
COMMON_JS = GAMES_JS / "common.js"
MORPH_JS = ROOT / "node_modules" / "idiomorph" / "dist" / "idiomorph.js"
SITE_CSS = ROOT / "static" / "css" / "classplay.css"
PAGE = '<!doctype html><html lang="en"><body><main id="root"></main></body></html>'

_BOOT = r"""
window.announced = [];
window.outbox = [];
window.errors = [];
window.drafts = {};
window.addEventListener("error", (e) => window.errors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.errors.push(String(e.reason)));
const waiting = new Map();
let nextId = 0;
function interpolate(fmt, obj, named) {
  return named ? fmt.replace(/%\(\s*([^)]+?)\s*\)s/g, (m, k) => String(obj[k])) : fmt;
}
window.Classplay = { registerGame(name, module) { window.gameName = name; window.gameModule = module; } };
window.setupCtx = function (role, player, compact) {
  window.ctx = {
    role, player, compact,
    gettext: (s) => s, ngettext: (s, p, n) => (n === 1 ? s : p), interpolate,
    act(action) {
      const id = ++nextId;
      window.outbox.push({ id, action });
      window.sent = (window.sent || []).concat([{ action, at: performance.now() }]);
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    countdown(el, deadline) { el.textContent = deadline == null ? "" : "0:30"; },
    serverNow: () => 0,
    announce: (text) => window.announced.push(text),
    draft: (key) => window.drafts[key] || null,
    saveDraft: (key, value) => { window.drafts[key] = value; },
    session: { id: 1, game: window.harnessGame, title: "Test", status: "running", participants: [] },
  };
};
window.takeOutbox = () => window.outbox.splice(0);
window.settle = (id, ok, message, seq) => {
  const w = waiting.get(id); waiting.delete(id);
  if (ok) w.resolve({ seq, duplicate: false }); else w.reject({ code: "illegal", message });
  return new Promise((done) => setTimeout(done, 0));
};
window.draw = (table) => window.gameModule.render(document.getElementById("root"), table, window.ctx);
window.drawMany = (items) => {
  const own = window.ctx;
  const texts = items.map(([id, role, player, compact, table]) => {
    let root = document.getElementById(id);
    if (!root) {
      root = document.createElement("section");
      root.id = id;
      document.body.append(root);
    }
    window.setupCtx(role, player, compact);
    window.gameModule.render(root, table, window.ctx);
    return root.innerText;
  });
  window.ctx = own;
  return texts;
};
"""


def scripts_of(game: str) -> list[pathlib.Path]:
    """The game screen's scripts, in the order its pages load them (its definition's ``screen_scripts``)."""
    from games.definitions import definition

    return [STATIC / script for script in definition(game).screen_scripts]


def styles_of(game: str) -> list[pathlib.Path]:
    """The style sheets a live page of the game links: the site's, then the game's."""
    return [SITE_CSS, ROOT / "static" / "css" / "games" / f"{game}.css"]


def boot(game: str) -> str:
    """The stand-in for the page controller, for a page of ``game``."""
    return f"window.harnessGame = {json.dumps(game)};\n{_BOOT}"


def add_game_scripts(page, game: str) -> None:
    """The morph library, the shared module, then the game's scripts, in the live pages' order."""
    for script in (MORPH_JS, COMMON_JS, *scripts_of(game)):
        page.add_script_tag(path=str(script))


def mount(page, game: str, role: str, player: str | None = None, compact: bool = False) -> None:
    """Loads ``game`` into ``page`` (which holds a ``#root``) for one viewer, behind the stand-in."""
    for sheet in styles_of(game):
        page.add_style_tag(path=str(sheet))
    page.add_script_tag(content=boot(game))
    page.evaluate("([r, p, c]) => window.setupCtx(r, p, c)", [role, player, compact])
    add_game_scripts(page, game)


def open_device(new_page, game: str, role: str, player: str | None = None, compact: bool = False, **size):
    """A new page (``width``, ``height``) showing ``game`` to one viewer, ready for ``window.draw``."""
    page = new_page(**size)
    page.set_content(PAGE)
    mount(page, game, role, player, compact)
    return page


def in_time(state: dict, now: float) -> float:
    """The moment a screen test applies a move: ``now``, unless the phase's clock ran out by then, in which
    case just before it (the engines refuse a late move, and these tests are about screens, not clocks:
    their devices always move in time)."""
    from games.engine.core import phase_deadline

    deadline = phase_deadline(state)
    return now if deadline is None or now < deadline else deadline - 0.01
