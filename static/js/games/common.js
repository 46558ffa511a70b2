/* What every game module (static/js/games/<game>.js) shares: the DOM builders, the translation shim and
 * the few widgets all screens draw alike. Pages load this file just before the game's module; the module
 * binds what it needs to local names, e.g.
 *
 *   const { h, gettext, ngettext } = window.ClassplayUI;
 *
 * so `gettext("...")` is still written out in the module and `makemessages -d djangojs` finds the string.
 */
(function () {
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

  window.ClassplayUI = {
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
  };
})();
