/* What every game screen shares: the DOM builders, the translation shim, the few widgets all screens draw
 * alike, and the one render / re-render / focus contract (`screenModule`, `mount`: docs/frontend.md).
 * Pages load the morph library (static/vendor/idiomorph/idiomorph.js, from node_modules), this file, then
 * the game's scripts; each binds what it needs to local names, e.g.
 *
 *   const { h, gettext, ngettext } = window.ClassplayUI;
 *
 * so `gettext("...")` is still written out in the module and `makemessages -d djangojs` finds the string.
 */

// The contract's types (global: every game's JSDoc uses them; docs/frontend.md, "Game screens").

/**
 * The message the page controller hands a game for one table (the server's, or the replay's step).
 * @typedef {object} TableMessage
 * @property {number} table the table's id
 * @property {number} [number] its number in the session
 * @property {number} seq the sequence number of the table's last change
 * @property {"playing" | "finished" | "ended"} status
 * @property {any} view the engine's view for this viewer (each game types its own)
 */

/**
 * What the page controller gives a game for one viewer (session.js, replay.js, the tests' harness).
 * @typedef {object} GameContext
 * @property {"player" | "teacher" | "projector" | "replay"} role
 * @property {string | null} player the viewer's engine player id on a student's device
 * @property {boolean} compact every table drawn small at once (the teacher's console)
 * @property {{id?: number, game?: string, title?: string, status?: string, lobby_locked?: boolean, participants?: any[]}} session
 * @property {(action: object) => Promise<{seq: number, duplicate: boolean}>} act sends a move; rejects with {code, message}
 * @property {(element: HTMLElement, deadline: number | null | undefined) => void} countdown
 * @property {() => number} serverNow the server's time in epoch seconds
 * @property {(text: string) => void} announce speaks through the page's polite live region
 * @property {(key: string) => any} draft per-device storage of work in progress
 * @property {(key: string, value: any) => void} saveDraft
 * @property {(text: string) => string} [gettext]
 * @property {(singular: string, plural: string, count: number) => string} [ngettext]
 * @property {(format: string, values: object, named?: boolean) => string} [interpolate]
 */

/**
 * A game's screen, split in two: its view (message, ctx and input state -> DOM) and its input
 * (events, sends, announcements). `screenModule` turns it into the module the page controller renders.
 * @template State
 * @typedef {object} ScreenParts
 * @property {() => State} state the screen's own input state, fresh for each root (a pick, a pending send)
 * @property {(screen: GameScreen<State>) => Element} view builds the whole screen from screen.table,
 *   screen.ctx and screen.state with h/svg; never attaches listeners, never mutates the state
 * @property {ScreenInput<State>} input
 * @property {string} [focusFallback] a selector to focus when the focused control was removed or disabled
 */

/**
 * @template State
 * @typedef {object} ScreenInput
 * @property {(screen: GameScreen<State>) => void} bind once per root: delegated listeners on screen.root
 *   (and on the document for keys), reading what to do from the data-* attributes the view drew
 * @property {(screen: GameScreen<State>, previous: TableMessage | null) => void} [receive] on each new
 *   message, before it is drawn: drop input the message made stale, announce what changed
 * @property {(screen: GameScreen<State>) => void} [drawn] after every draw: what lives outside the view
 *   (a countdown in the drawn clock, the projector's wall layout)
 */

/**
 * A game's screen mounted in one root (common.js's MountedScreen): what its view and input are given.
 * @template State
 * @typedef {object} GameScreen
 * @property {HTMLElement} root the table's root (a table card's body); the view is morphed into it
 * @property {string} uid a prefix for ids that must be unique on the page (several tables on one console)
 * @property {TableMessage} table the latest message
 * @property {GameContext} ctx the latest ctx
 * @property {State} state the game's input state (input.js keeps it; the view reads it)
 * @property {number} draws how many times it has been drawn
 * @property {(table: TableMessage, ctx: GameContext) => void} show a new message: the input's receive, then a draw
 * @property {() => void} redraw draws the view again (after a pick, a send, its answer)
 * @property {() => void} hold holds redraws back (a drag in progress)
 * @property {() => void} release ends a hold, drawing what was held back
 */

/* exported ClassplayUI -- a global of the page, typed for the scripts that load after it */
var ClassplayUI = (function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";

  // ------------------------------------------------------------------------------------------------
  // Building elements
  // ------------------------------------------------------------------------------------------------

  /** Props: "text" (textContent), "html" (trusted markup only, such as a face drawn by the module),
   *  "dataset" (an object), "style" (CSS text, set through the CSSOM: the Content-Security-Policy refuses
   *  style attributes), "on<event>" (a listener), anything else an attribute (true: present, null,
   *  undefined or false: left out). */
  function setProps(node, props) {
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "html") node.innerHTML = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "style") node.style.cssText = String(value);
      else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  /** Children, in arrays nested to any depth; null, undefined and false are skipped, other values are text. */
  function appendKids(node, kids) {
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
  }

  /** An HTML element: h("button", { type: "button", onclick }, "Roll"). */
  function h(tag, props, ...kids) {
    const node = document.createElement(tag);
    setProps(node, props);
    appendKids(node, kids);
    return node;
  }

  /** An SVG element, with the same props and children as h. */
  function svg(tag, props, ...kids) {
    const node = document.createElementNS(SVG_NS, tag);
    setProps(node, props);
    appendKids(node, kids);
    return node;
  }

  /** A decorative picture (hidden from screen readers, never focused): icon("0 0 24 24", "wu-icon",
   *  ["path", { d: "..." }], ...), one [tag, attributes] per shape. */
  function icon(viewBox, className, ...shapes) {
    return svg(
      "svg",
      { viewBox, class: className, "aria-hidden": "true", focusable: "false" },
      shapes.map(([tag, attributes]) => svg(tag, attributes)),
    );
  }

  // ------------------------------------------------------------------------------------------------
  // Translation
  // ------------------------------------------------------------------------------------------------

  // Django's JavaScript catalog (/jsi18n/<language>/) defines gettext, ngettext and interpolate globally
  // on every page, and the page controller passes the same functions in ctx. They are looked up at each call, so
  // the load order of the scripts does not matter; without a catalog the text stays English.
  const fromContext = { gettext: null, ngettext: null, pgettext: null, interpolate: null };

  /** Prefer the catalog the page controller handed over in ctx (one game module per page). */
  function useCatalog(ctx) {
    for (const name of Object.keys(fromContext)) {
      if (ctx && typeof ctx[name] === "function") fromContext[name] = ctx[name];
    }
  }

  function catalogFunction(name) {
    const found = fromContext[name] || window[name];
    return typeof found === "function" ? found : null;
  }

  function gettext(text) {
    const translate = catalogFunction("gettext");
    return translate ? translate(text) : text;
  }

  /** A word that means two things in English ("Language": the school subject or the page's language). */
  function pgettext(context, text) {
    const translate = catalogFunction("pgettext");
    return translate ? translate(context, text) : text;
  }

  function ngettext(singular, plural, count) {
    const translate = catalogFunction("ngettext");
    if (translate) return translate(singular, plural, count);
    return count === 1 ? singular : plural;
  }

  // On a right-to-left page every value put into a sentence is isolated (U+2068 FSI … U+2069 PDI), so a
  // name ending in a full stop ("Ava I."), a game's name ("Line Up!") or a number with its sign ("−10")
  // keeps its own order inside the Arabic sentence, never ".Ava I", "!Line Up" or "10−" (docs/i18n.md).
  // The sentences are plain text (shown, labelled and spoken alike), so the isolates are characters.
  const FSI = "\u2068";
  const PDI = "\u2069";

  function rightToLeft() {
    return typeof document !== "undefined" && !!document.documentElement && document.documentElement.dir === "rtl";
  }

  function isolated(values) {
    if (!values || !rightToLeft()) return values;
    const out = {};
    for (const [key, value] of Object.entries(values)) {
      out[key] = value === null || value === undefined ? value : FSI + String(value) + PDI;
    }
    return out;
  }

  /** interpolate("%(name)s won.", { name }): always named placeholders, as every game writes them. */
  function interpolate(format, values) {
    const fill = catalogFunction("interpolate");
    const filled = isolated(values);
    if (fill) return fill(format, filled, true);
    return format.replace(/%\((\w+)\)s/g, (_match, key) => String(filled[key]));
  }

  // ------------------------------------------------------------------------------------------------
  // Widgets
  // ------------------------------------------------------------------------------------------------

  /** Hand the module to the page controller (session.js). Live pages load the controller first; if this
   *  script runs before it, try again once the document is parsed. Pages without a controller (How to
   *  play) keep the module in window.ClassplayPendingGames. */
  function registerGame(name, module) {
    const register = () => {
      if (!window.Classplay || typeof window.Classplay.registerGame !== "function") return false;
      window.Classplay.registerGame(name, module);
      return true;
    };
    const keepPending = () => {
      window.ClassplayPendingGames = window.ClassplayPendingGames || [];
      window.ClassplayPendingGames.push([name, module]);
    };
    if (register()) return;
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => register() || keepPending(), { once: true });
    } else {
      keepPending();
    }
  }

  const wallsWatched = new WeakSet();

  /** The projector shows every table of the class at once: the wall of table cards gets the number of
   *  columns that lets its text be largest (cards of `width` x `height` ems), and the game's CSS sizes the
   *  text from `--<prefix>-cols` and `--<prefix>-rows` under `wallClass`. Redone when the window resizes. */
  function layoutWall(container, { width, height, wallClass, prefix }) {
    const wall = container.closest("[data-tables]");
    if (!wall || !document.body.classList.contains("projector")) return;
    const count = wall.querySelectorAll(":scope > .table-card").length || 1;
    const best = window.Classplay.wallLayout(count, width, height);
    wall.classList.add(wallClass);
    wall.style.setProperty(`--${prefix}-cols`, String(best.cols));
    wall.style.setProperty(`--${prefix}-rows`, String(best.rows));
    if (!wallsWatched.has(wall)) {
      wallsWatched.add(wall);
      const again = () => container.isConnected ? container : wall.querySelector(".table-body") || container;
      window.addEventListener("resize", () => layoutWall(again(), { width, height, wallClass, prefix }));
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Numbers in the page's language
  // ------------------------------------------------------------------------------------------------

  // The page's language (<html lang>) decides separators and grouping; the digits stay 0-9 in every
  // language, as the server writes them, so a number reads the same on every screen (docs/i18n.md).
  const pageLocale = () => document.documentElement.lang || "en";

  /** ``formatNumber(1234.5)`` -> "1,234.5" in English, "1.234,5" in Spanish. */
  function formatNumber(value, options) {
    return new Intl.NumberFormat(pageLocale(), { numberingSystem: "latn", ...options }).format(value);
  }

  /** A number already written as text ("-23.5", "3/4") with the page's decimal separator ("-23,5"),
   * its digits untouched (a card's face is exact: nothing is rounded). */
  function localDecimals(text) {
    const separator = formatNumber(1.5).replace(/[0-9]/g, "");
    return separator === "." ? String(text) : String(text).replace(/([0-9])\.(?=[0-9])/g, "$1" + separator);
  }

  // ------------------------------------------------------------------------------------------------
  // Game screens: one render / re-render / focus contract (docs/frontend.md, "Game screens")
  // ------------------------------------------------------------------------------------------------

  let screensMounted = 0;

  /** One game's screen in one root (a table card's body): see the GameScreen type above. @template State */
  class MountedScreen {
    /** @param {HTMLElement} root @param {ScreenParts<State>} parts @param {string} name */
    constructor(root, parts, name) {
      this.root = root;
      this.parts = parts;
      /** A prefix for ids that must be unique on the page (several tables on one console). */
      this.uid = `${name}-${++screensMounted}`;
      /** @type {TableMessage} */
      this.table = /** @type {any} */ (null);
      /** @type {GameContext} */
      this.ctx = /** @type {any} */ (null);
      this.state = parts.state();
      this.draws = 0;
      this.held = false;
      this.missed = false;
      parts.input.bind(this);
    }

    /** A new message for this root: the input sees it first, then it is drawn. @param {TableMessage} table
     *  @param {GameContext} ctx */
    show(table, ctx) {
      const previous = this.table;
      this.table = table;
      this.ctx = ctx;
      useCatalog(ctx);
      if (this.parts.input.receive) this.parts.input.receive(this, previous);
      this.redraw();
    }

    /** Draws the view again (after a message, a pick, a send): morphed into the root, so every node
     *  that stays is kept, with its focus, caret, scroll and pressed state. Deferred while held. */
    redraw() {
      if (this.held) {
        this.missed = true;
        return;
      }
      morphInto(this.root, this.parts.view(this), this.parts.focusFallback);
      this.draws += 1;
      if (this.parts.input.drawn) this.parts.input.drawn(this);
    }

    /** Holds redraws back while a drag is in progress (the dragged card must stay where it is). */
    hold() {
      this.held = true;
    }

    /** Ends a hold and draws what was held back, if anything. */
    release() {
      this.held = false;
      if (this.missed) {
        this.missed = false;
        this.redraw();
      }
    }
  }

  /** The focused control's focus key (data-fk), when it is inside `root`. @param {Element} root */
  function focusKeyIn(root) {
    const active = document.activeElement;
    return active instanceof HTMLElement && root.contains(active) ? active.dataset.fk || null : null;
  }

  /** @param {Element | null} element */
  const focusable = (element) =>
    element instanceof HTMLElement && !(/** @type {HTMLButtonElement} */ (element).disabled);

  /** Morphs `root`'s children into `content` (idiomorph), then puts the focus back on the control with
   *  the same data-fk if the morph replaced it, else on `fallback`. The morph never writes a style
   *  attribute (the Content-Security-Policy refuses them): styles are copied through the CSSOM. A
   *  disclosure (`<details>`) stays as the player left it: the views never say whether it is open, and
   *  the next update closed one a moment after it was opened.
   *  @param {HTMLElement} root @param {Element} content @param {string} [fallback] */
  function morphInto(root, content, fallback) {
    const focusKey = focusKeyIn(root);
    window.Idiomorph.morph(root, content, {
      morphStyle: "innerHTML",
      callbacks: {
        beforeAttributeUpdated: (name, element) =>
          name !== "style" && !(name === "open" && element.tagName === "DETAILS"),
        afterNodeMorphed: (oldNode, newNode) => {
          if (!(oldNode instanceof Element) || !(newNode instanceof Element) || !("style" in oldNode)) return;
          const [from, to] = /** @type {HTMLElement[]} */ ([newNode, oldNode]);
          if (to.style.cssText !== from.style.cssText) to.style.cssText = from.style.cssText;
        },
      },
    });
    if (!focusKey || (focusKeyIn(root) === focusKey && focusable(document.activeElement))) return;
    const again = root.querySelector(`[data-fk="${CSS.escape(focusKey)}"]`);
    const target = focusable(again) ? again : fallback ? root.querySelector(fallback) : null;
    if (target instanceof HTMLElement) target.focus();
  }

  /** A game's screen mounted in `root`: its input bound once; `screen.show(table, ctx)` draws a message.
   *  @template State @param {HTMLElement} root @param {ScreenParts<State>} parts @param {string} [name] */
  function mount(root, parts, name) {
    return new MountedScreen(root, parts, name || "screen");
  }

  /** The module the page controller calls (`render(container, table, ctx)`), one Screen per container.
   *  @template State @param {string} name @param {ScreenParts<State>} parts */
  function screenModule(name, parts) {
    /** @type {WeakMap<HTMLElement, GameScreen<State>>} */
    const screens = new WeakMap();
    return {
      parts,
      /** @param {HTMLElement} container @param {TableMessage} table @param {GameContext} ctx */
      render(container, table, ctx) {
        let screen = screens.get(container);
        if (!screen) {
          screen = mount(container, parts, name);
          screens.set(container, screen);
        }
        screen.show(table, ctx);
        return screen;
      },
    };
  }

  /** @type {Record<string, Record<string, any>>} */
  const piecesByGame = {};

  /** What one game's scripts share (view.js exports its view and text helpers; input.js, loaded after
   *  it, reads them): `const pieces = ClassplayUI.pieces("lineit")`. @param {string} game */
  function pieces(game) {
    piecesByGame[game] = piecesByGame[game] || {};
    return piecesByGame[game];
  }

  const api = {
    SVG_NS,
    h,
    svg,
    icon,
    gettext,
    ngettext,
    pgettext,
    interpolate,
    useCatalog,
    registerGame,
    layoutWall,
    formatNumber,
    localDecimals,
    mount,
    screenModule,
    pieces,
  };
  window.ClassplayUI = api;
  return api;
})();
