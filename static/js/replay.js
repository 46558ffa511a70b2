/* Step through a finished table move by move: each step is rebuilt by the server from seed and log. */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, k) => obj[k]));

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.querySelector("[data-replay]");
    if (!root) return;
    const total = Number(root.dataset.steps);
    const body = root.querySelector("[data-replay-body]");
    const range = /** @type {HTMLInputElement} */ (root.querySelector("[data-step-range]"));
    const label = root.querySelector("[data-step-label]");
    const entryBox = root.querySelector("[data-entry]");
    const cache = new Map();
    let current = 1;

    const ctx = {
      role: "replay", player: null, compact: false, session: {}, act: () => Promise.reject({ code: "replay", message: gettext("This is a replay.") }),
      countdown: () => {}, serverNow: () => Date.now() / 1000, announce: () => {},
      draft: () => null, saveDraft: () => {}, gettext, ngettext: window.ngettext || ((s, p, n) => (n === 1 ? s : p)), interpolate,
    };

    async function load(step) {
      if (!cache.has(step)) {
        const url = root.dataset.stepUrl.replace(/0\.json$/, `${step}.json`);
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok) throw new Error(response.statusText);
        cache.set(step, await response.json());
      }
      return cache.get(step);
    }

    async function show(step) {
      current = Math.min(total, Math.max(1, step));
      range.value = String(current);
      label.textContent = interpolate(gettext("Step %(step)s of %(total)s"), { step: current, total }, true);
      const data = await load(current);
      const entry = data.entry;
      const who = entry.player ? ` · ${entry.player}` : "";
      entryBox.textContent = `${entry.kind}${who}${entry.action ? " · " + JSON.stringify(entry.action) : ""}`;
      const module = (window.Classplay.games || {})[root.dataset.game];
      if (module) module.render(body, data.table, ctx);
      else body.textContent = JSON.stringify(data.table.view, null, 1);
    }

    root.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-step]"));
      if (!button) return;
      const moves = { first: 1, prev: current - 1, next: current + 1, last: total };
      show(moves[button.dataset.step]);
    });
    range.addEventListener("input", () => show(Number(range.value)));
    document.addEventListener("keydown", (event) => {
      if (/** @type {Element} */ (event.target).closest("input, textarea, select")) return;
      // The arrow that points at the previous-step button: on a right-to-left page it is on the right.
      const back = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
      if (event.key === back) show(current - 1);
      else if (event.key === "ArrowLeft" || event.key === "ArrowRight") show(current + 1);
    });
    show(1);
  });
})();
