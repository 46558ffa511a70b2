/* Line-it's input: picks, moves, drags and keys on the student's device, and what is announced. It keeps
 * the screen's input state (LineitInputState), sends moves through ctx.act and asks for a redraw; the view
 * (words.js, board.js, view.js) draws from that state. Registers the game's screen (docs/frontend.md).
 *
 * Keys on the student's device (also on the How to play page): 1-9 pick a market card (or, after the
 * draft, a hand card); L puts the picked card in your line (or plays the picked hand card); H puts it in
 * your hand; N scores your line and starts a new one with it; S scores your line; E ends your turn;
 * Escape drops the pick.
 */

/**
 * The viewer's input in progress, kept per table root across redraws.
 * @typedef {object} LineitInputState
 * @property {LineitPick | null} selected the picked card
 * @property {boolean} pending a move is on its way
 * @property {string | null} error the server's reason for the last refused move
 * @property {number | null} lastN the last log entry announced
 * @property {string | null} lastTurnKey the turn last announced
 * @property {boolean} suppressClick a drag just ended: its click is not a pick
 */

/** @typedef {GameScreen<LineitInputState>} LineitScreen */

(function () {
  "use strict";

  const { gettext, interpolate: fmt, layoutWall, screenModule, registerGame } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineit");
  const { cardName, logText, myTurn, step, promptText, clockDeadline, sceneOf, view } = pieces;

  const DRAG_THRESHOLD = 8;
  /** The projector shows every table of the class at once: cards of 19 x 19 ems, and the CSS sizes the
   *  text to the screen (lineit.css, .lineit-wall), so 1 to 8 tables (or more) fit without scrolling or
   *  cutting. */
  const WALL = { width: 19, height: 19, wallClass: "lineit-wall", prefix: "li" };

  /** @returns {LineitInputState} */
  function freshState() {
    return { selected: null, pending: false, error: null, lastN: null, lastTurnKey: null, suppressClick: false };
  }

  /** @param {LineitScreen} screen */
  const stepOf = (screen) => step(sceneOf(screen));

  // ---------------------------------------------------------------------------------------------------
  // Moves
  // ---------------------------------------------------------------------------------------------------

  /** @param {LineitScreen} screen @param {object} action */
  function send(screen, action) {
    const state = screen.state;
    if (state.pending) return;
    state.pending = true;
    state.error = null;
    screen.redraw();
    // ctx.act never throws: a refusal or a failed send rejects its promise.
    Promise.resolve(screen.ctx.act(action)).then(
      () => {
        state.pending = false;
        state.selected = null;
        screen.redraw();
      },
      (error) => {
        state.pending = false;
        state.error = (error && error.message) || gettext("That move was not accepted.");
        screen.ctx.announce(state.error);
        screen.redraw();
        focusCard(screen, state.selected);
      },
    );
  }

  /** @param {LineitScreen} screen @param {LineitPick | null} pick */
  function focusCard(screen, pick) {
    const card = pick && screen.root.querySelector(`[data-fk="${pick.source}:${CSS.escape(pick.id)}"]`);
    if (card instanceof HTMLElement) card.focus();
  }

  /** @param {LineitScreen} screen @param {string} message */
  function refuse(screen, message) {
    screen.state.error = message;
    screen.ctx.announce(message);
    screen.redraw();
  }

  /** @param {LineitScreen} screen @param {"line" | "hand" | "new_line"} to @param {string} [cardId] */
  function take(screen, to, cardId) {
    const { selected } = screen.state;
    const id = cardId || (selected && selected.source === "market" ? selected.id : null);
    if (stepOf(screen) !== "take") return;
    if (!id) return refuse(screen, gettext("First pick a card from the market."));
    screen.state.selected = { source: "market", id };
    send(screen, { type: "take", card: id, to });
  }

  /** @param {LineitScreen} screen @param {string} [cardId] */
  function play(screen, cardId) {
    const { selected } = screen.state;
    const id = cardId || (selected && selected.source === "hand" ? selected.id : null);
    const now = stepOf(screen);
    if (now !== "after" && now !== "final") return;
    if (!id) return refuse(screen, gettext("First pick a card from your hand."));
    screen.state.selected = { source: "hand", id };
    send(screen, { type: "play", card: id });
  }

  /** @param {LineitScreen} screen */
  function scoreLine(screen) {
    const now = stepOf(screen);
    if (now !== "after" && now !== "final") return;
    send(screen, { type: "score" });
  }

  /** The pick survives a reload or a dropped connection within the same step of the same turn.
   *  @param {LineitScreen} screen */
  function draftKey(screen) {
    const view = screen.table.view;
    return ["lineit", screen.table.table, view.round, view.phase, view.whose_turn, view.turn ? view.turn.step : ""].join(":");
  }

  /** @param {LineitScreen} screen @param {LineitSource} source @param {string} id */
  function select(screen, source, id) {
    const state = screen.state;
    if (state.pending) return;
    const same = state.selected && state.selected.source === source && state.selected.id === id;
    state.selected = same ? null : { source, id };
    if (screen.ctx.saveDraft) screen.ctx.saveDraft(draftKey(screen), state.selected);
    state.error = null;
    screen.redraw();
    const view = screen.table.view;
    if (!state.selected) return;
    const hand = (view.you && view.you.hand) || [];
    const card = (source === "market" ? view.market : hand).find((c) => c.id === id);
    let text;
    if (source === "hand") text = fmt(gettext("Picked %(card)s from your hand. Play it into your line?"), { card: cardName(card) });
    else if (hand.length >= view.hand_limit) text = fmt(gettext("Picked %(card)s. Put it in your line, or score your line and start a new one with it."), { card: cardName(card) });
    else text = fmt(gettext("Picked %(card)s. Put it in your line or in your hand."), { card: cardName(card) });
    screen.ctx.announce(text);
  }

  /** What a move button (data-action) does. @param {LineitScreen} screen @param {string} action */
  function actOn(screen, action) {
    if (action === "line" || action === "hand" || action === "new_line") take(screen, action);
    else if (action === "play") play(screen);
    else if (action === "score") scoreLine(screen);
    else if (action === "end") send(screen, { type: "end" });
  }

  /** @param {LineitScreen} screen @param {KeyboardEvent} event */
  function onKey(screen, event) {
    if (screen.ctx.role !== "player" || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const now = stepOf(screen);
    if (!now || screen.state.pending) return;
    const view = screen.table.view;
    const key = event.key.toLowerCase();
    let handled = true;
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      const pool = now === "take" ? view.market : (view.you && view.you.hand) || [];
      const source = now === "take" ? "market" : "hand";
      if (index < pool.length && (source === "market" || !view.turn.played_from_hand)) {
        select(screen, source, pool[index].id);
        focusCard(screen, { source, id: pool[index].id });
      } else handled = false;
    } else if (key === "l") {
      if (now === "take") take(screen, "line");
      else play(screen);
    } else if (key === "h" && now === "take") take(screen, "hand");
    else if (key === "n" && now === "take") take(screen, "new_line");
    else if (key === "s" && now !== "take") scoreLine(screen);
    else if (key === "e" && now === "after") send(screen, { type: "end" });
    else if (key === "escape" && screen.state.selected) {
      screen.state.selected = null;
      screen.redraw();
    } else handled = false;
    if (handled) event.preventDefault();
  }

  // ---------------------------------------------------------------------------------------------------
  // Drag and drop with pointer events (mouse, touch and pen alike). A press that moves more than a few
  // pixels becomes a drag; dropping on a zone makes the move; a press that does not move is a tap (select).
  // ---------------------------------------------------------------------------------------------------

  /**
   * The pointer press that may become a drag (one at a time on a page).
   * @type {{screen: LineitScreen, source: LineitSource, id: string, x: number, y: number, el: HTMLElement,
   *   ghost: HTMLElement | null, offsetX?: number, offsetY?: number, lastY?: number, scrolling?: number | null} | null}
   */
  let press = null;

  /** @param {LineitScreen} screen @param {PointerEvent} event */
  function startPress(screen, event) {
    const card = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-card]"));
    if (!card || !screen.root.contains(card)) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    if (screen.state.pending) return;
    const source = /** @type {LineitSource} */ (card.dataset.source);
    press = { screen, source, id: card.dataset.card || "", x: event.clientX, y: event.clientY, el: card, ghost: null };
  }

  /** @param {number} x @param {number} y @returns {HTMLElement | null} */
  function zoneAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const zone = /** @type {HTMLElement | null} */ (el && el.closest("[data-drop]"));
    return zone && !zone.classList.contains("is-closed") ? zone : null;
  }

  // While a card is dragged near the top or bottom of the window, the page scrolls (a hand or a line below
  // the fold on a small tablet is still in reach).
  const EDGE = 48;
  function autoScroll() {
    if (!press || !press.ghost) return;
    const y = press.lastY || 0;
    const by = y < EDGE ? -(EDGE - y) / 3 : y > window.innerHeight - EDGE ? (y - (window.innerHeight - EDGE)) / 3 : 0;
    if (by) window.scrollBy(0, by);
    press.scrolling = by ? window.requestAnimationFrame(autoScroll) : null;
  }

  /** @param {PointerEvent} event */
  function movePress(event) {
    if (!press) return;
    press.lastY = event.clientY;
    if (!press.ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
      const { screen, el } = press;
      const rect = el.getBoundingClientRect();
      const ghost = /** @type {HTMLElement} */ (el.cloneNode(true));
      ghost.classList.add("lineit-ghost");
      ghost.removeAttribute("data-fk");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.width = rect.width + "px";
      ghost.style.height = rect.height + "px";
      press.ghost = ghost;
      press.offsetX = press.x - rect.left;
      press.offsetY = press.y - rect.top;
      document.body.append(ghost);
      screen.hold(); // the dragged card stays where it is until the drop
      screen.root.classList.add("lineit-dragging", "lineit-dragging--" + press.source);
    }
    press.ghost.style.left = event.clientX - (press.offsetX || 0) + "px";
    press.ghost.style.top = event.clientY - (press.offsetY || 0) + "px";
    const zone = zoneAt(event.clientX, event.clientY);
    for (const el of press.screen.root.querySelectorAll("[data-drop].is-over")) if (el !== zone) el.classList.remove("is-over");
    if (zone) zone.classList.add("is-over");
    if (!press.scrolling) autoScroll();
    event.preventDefault();
  }

  /** @param {PointerEvent} event @param {boolean} cancelled */
  function endPress(event, cancelled) {
    if (!press) return;
    const { screen, source, id, ghost, scrolling } = press;
    press = null;
    if (scrolling) window.cancelAnimationFrame(scrolling);
    if (!ghost) return; // a tap: the click handler selects
    ghost.remove();
    screen.state.suppressClick = true;
    setTimeout(() => {
      screen.state.suppressClick = false;
    }, 0);
    const root = screen.root;
    root.classList.remove("lineit-dragging", "lineit-dragging--market", "lineit-dragging--hand");
    const zone = cancelled ? null : zoneAt(event.clientX, event.clientY);
    for (const el of root.querySelectorAll("[data-drop].is-over")) el.classList.remove("is-over");
    const drop = zone && root.contains(zone) ? zone.dataset.drop : null;
    screen.release();
    if (source === "market" && (drop === "line" || drop === "hand" || drop === "new_line")) take(screen, drop, id);
    else if (source === "hand" && drop === "line") play(screen, id);
  }

  window.addEventListener("pointermove", movePress);
  // A finger that drags a card must not also scroll the page or start the browser's own gestures (on iPad
  // Safari touch-action alone does not stop them; on Chrome a drag the page did not claim left the next
  // taps without their click): while a press may become a drag, its touch moves belong to the card. A tap
  // (no move) keeps its click.
  window.addEventListener(
    "touchmove",
    (event) => {
      if (press && event.cancelable) event.preventDefault();
    },
    { passive: false },
  );
  window.addEventListener("pointerup", (event) => endPress(event, false));
  window.addEventListener("pointercancel", (event) => endPress(event, true));

  // ---------------------------------------------------------------------------------------------------
  // The screen's input: bound once per root, told of each message, and after each draw
  // ---------------------------------------------------------------------------------------------------

  /** @param {LineitScreen} screen */
  function bind(screen) {
    const root = screen.root;
    root.addEventListener("click", (event) => {
      const target = /** @type {Element} */ (event.target);
      const button = /** @type {HTMLButtonElement | null} */ (target.closest("button[data-card], button[data-action]"));
      if (!button || !root.contains(button) || button.disabled) return;
      if (button.dataset.action) actOn(screen, button.dataset.action);
      else if (!screen.state.suppressClick) select(screen, /** @type {LineitSource} */ (button.dataset.source), button.dataset.card || "");
    });
    root.addEventListener("pointerdown", (event) => startPress(screen, event));
    // Keys work while focus is on the table, or nowhere in particular (after a drag, or a redraw that
    // removed the focused button); never while another control of the page has the focus.
    document.addEventListener("keydown", (event) => {
      if (!root.isConnected) return;
      const target = /** @type {HTMLElement | null} */ (event.target);
      const nowhere = !target || target === document.body || target === document.documentElement || target.tagName === "MAIN";
      if (nowhere || root.contains(target)) onKey(screen, event);
    });
  }

  /** A new message: forget what it made stale, restore a saved pick, announce what changed.
   *  @param {LineitScreen} screen @param {TableMessage | null} previous */
  function receive(screen, previous) {
    const { state, table, ctx } = screen;
    const first = !previous;
    if (previous && previous.seq !== table.seq) state.error = null;
    if (first && !state.selected && ctx.draft && stepOf(screen)) {
      const saved = ctx.draft(draftKey(screen));
      if (saved && (saved.source === "market" || saved.source === "hand") && typeof saved.id === "string") state.selected = saved;
    }
    forgetStalePick(screen);
    announceChanges(screen, first);
  }

  /** A pick that is no longer possible (the card went, or the step changed) is dropped.
   *  @param {LineitScreen} screen */
  function forgetStalePick(screen) {
    const { state, table } = screen;
    if (!state.selected) return;
    const view = table.view;
    const now = stepOf(screen);
    const hand = (view.you && view.you.hand) || [];
    const pool = state.selected.source === "market" ? (now === "take" ? view.market : []) : now === "after" || now === "final" ? hand : [];
    if (!pool.some((c) => c.id === state.selected?.id)) state.selected = null;
  }

  /** @param {LineitScreen} screen @param {boolean} first */
  function announceChanges(screen, first) {
    const { ctx, table, state } = screen;
    const view = table.view;
    if (ctx.role === "replay" || !ctx.announce) return;
    const scene = sceneOf(screen);
    const log = view.log || [];
    const newest = log.length ? log[log.length - 1].n : 0;
    const said = [];
    if (!first && state.lastN !== null && ctx.role === "player") {
      for (const entry of log) {
        if (entry.n > state.lastN) {
          const text = logText(entry, view, scene.me);
          if (text) said.push(text);
        }
      }
    }
    state.lastN = newest;
    const turnKey = view.whose_turn + ":" + (view.turn ? view.turn.step : "") + ":" + view.round + ":" + view.phase;
    if (turnKey !== state.lastTurnKey) {
      state.lastTurnKey = turnKey;
      if (myTurn(scene) && view.turn.step !== "after") said.push(gettext("Your turn.") + " " + promptText(scene));
    }
    if (said.length && ctx.role === "player") ctx.announce(said.slice(-4).join(" "));
  }

  /** After each draw: the clock, the projector's wall, and on a device's first draw the screen in view.
   *  @param {LineitScreen} screen */
  function drawn(screen) {
    const { root, ctx } = screen;
    const clock = root.querySelector(".lineit-clock");
    if (ctx.countdown && clock instanceof HTMLElement) ctx.countdown(clock, clockDeadline(sceneOf(screen)));
    if (ctx.role === "projector") requestAnimationFrame(() => layoutWall(root, WALL));
    if (screen.draws === 1 && ctx.role === "player" && window.scrollY === 0 && root.firstElementChild) {
      // A game screen: when it first appears, bring the status bar and the market to the top (the site's
      // header and the page title are not needed while playing). Never fights a reader's scroll.
      const card = root.closest(".table-card") || root;
      if (typeof card.scrollIntoView === "function") card.scrollIntoView({ block: "start", behavior: "instant" });
    }
  }

  const module = screenModule("lineit", {
    state: freshState,
    view,
    input: { bind, receive, drawn },
    focusFallback: ".lineit-actions button:not([disabled]), .lineit-market button",
  });
  // Exposed for the tests of the value formatting (no secrets: pure helpers).
  registerGame("lineit", Object.assign(module, { helpers: { exactDecimal: pieces.exactDecimal, valueNote: pieces.valueNote, logText } }));
})();
