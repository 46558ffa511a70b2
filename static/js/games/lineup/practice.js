/* Line Up!'s practice rack on the How to play page: the real screen (the game's other scripts, loaded
 * first) on a question the page describes in [data-lineup-try], with no server: the moves are applied
 * here, and the lock-in shows how many cards are in the right place.
 */
(function () {
  "use strict";

  const { h, gettext, useCatalog } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");

  /** @param {HTMLElement} host */
  function mountTry(host) {
    useCatalog({});
    const items = Array.from(host.querySelectorAll("[data-try-card]"));
    const answer = host.dataset.answer.split(",").map(Number);
    const board = { name: "standard", zones: [{ colour: "purple", first: 1, last: 8 }], stars: [], final: 25 };
    const cards = items.map((li) => ({ card: Number(li.dataset.tryCard), text: li.textContent.trim(), display: li.dataset.display }));
    const question = {
      id: "practice",
      heading: host.dataset.heading,
      order_label: host.dataset.orderLabel,
      direction: "desc",
      level: 1,
      subject: "",
      tags: [],
      cards: cards.map((c) => ({ card: c.card, text: c.text })),
    };
    const screen = h("div", { class: "lu-try-screen" });
    const again = h("button", { type: "button", class: "secondary lu-try-again", hidden: true }, gettext("Try again"));
    host.append(screen, again);
    let order = [1, 2, 3, 4, 5];
    let checked = null;
    let seq = 1;
    const team = (pos) => ({ members: [{ id: "you", name: gettext("You"), bot: null }], position: pos, zone: "purple", on_star: false, playing: true, captain: "you", locked: false });
    const view = () => ({
      game: "lineup",
      title: "Line Up!",
      phase: checked === null ? "answer" : "reveal",
      mini: "purple",
      round: 1,
      board,
      teams: { blue: team(checked || 0), yellow: Object.assign(team(0), { members: [], captain: null }) },
      turn: { teams: checked === null ? ["blue"] : [], players: [] },
      question,
      question_serial: seq,
      stars_pending: [],
      winner: null,
      over: false,
      log: [],
      clock: { deadline: null, remaining: null, paused: false },
      viewer: "player",
      you: { id: "you", name: gettext("You"), team: "blue", captain: true, can: checked === null ? ["confirm", "rack"] : [] },
      my_team: { team: "blue", captain: "you", rack: order, rack_by: null, orders: {}, my_order: order },
      reveal:
        checked === null
          ? undefined
          : {
              question: Object.assign({}, question, { cards }),
              answer,
              explanation: host.dataset.explanation,
              source: host.dataset.source,
              mini: "purple",
              results: { blue: { order, right: checked } },
              moves: checked ? [{ team: "blue", from: 0, to: checked, why: "purple" }] : [],
            },
    });
    const ctx = {
      role: "player",
      player: "you",
      compact: false,
      act(action) {
        if (action.type === "rack") order = action.order.slice();
        if (action.type === "confirm") {
          checked = order.filter((card, i) => card === answer[i]).length;
          again.hidden = false;
        }
        seq += 1;
        setTimeout(draw, 0);
        return Promise.resolve({ seq, duplicate: false });
      },
      countdown() {},
      serverNow: () => Date.now() / 1000,
      announce(text) {
        host.querySelector("[data-try-live]").textContent = text;
      },
      draft: () => null,
      saveDraft() {},
      gettext: window.gettext,
      ngettext: window.ngettext,
      interpolate: window.interpolate,
      session: null,
    };
    function draw() {
      pieces.module.render(screen, { table: 0, number: 1, seq, status: "playing", view: view() }, ctx);
    }
    again.addEventListener("click", () => {
      order = [1, 2, 3, 4, 5];
      checked = null;
      seq += 1;
      again.hidden = true;
      draw();
      const first = screen.querySelector("[data-rack] [data-card]");
      if (first) first.focus();
    });
    draw();
  }

  const tries = () => document.querySelectorAll("[data-lineup-try]").forEach((host) => mountTry(/** @type {HTMLElement} */ (host)));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tries);
  else tries();
})();
