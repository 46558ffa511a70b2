/* Line Up!'s input: the rack's taps, drags and keys, the pickers, the star turn's choices and the lock-ins
 * on the student's device, the console's hold on the answer, and what is announced. It keeps the screen's
 * input state (LineupInputState), sends moves through ctx.act and asks for a redraw; the view (words.js,
 * board.js, panels.js, view.js) draws from that state. Registers the game's screen (docs/frontend.md).
 *
 * Rack keys: arrow keys move the focused card one place; Home/End to the first/last place; 1-5 move it to
 * that place; Enter or Space picks a card up, then Enter or Space on another card swaps the two; Escape
 * puts it back. With a mouse, pen or finger: drag a card to a place, or tap two cards to swap them.
 */

/**
 * The viewer's input in progress, kept per table root across redraws.
 * @typedef {object} LineupInputState
 * @property {number | null} lastLog the log number last announced
 * @property {string | null} questionKey the question, phase and 5-space try the picks below belong to
 * @property {number | null} selected rack: the card picked up (tap or Enter) for a swap
 * @property {number | null} starCard star turn: the card chosen before its place
 * @property {number | null} starPlace star turn: the place chosen before its card
 * @property {{key: string | null, order: number[], ackSeq: number | null} | null} pending rack: our order
 *   not yet in a view
 * @property {boolean} inflight a rack message is on its way
 * @property {number[] | null} queued the latest order, waiting for the one on its way
 * @property {number} lastSent when the last rack message left (ms)
 * @property {string | null} error the server's reason for the last refused action
 * @property {string | null} rackSeen the team's rack last seen, to say a teammate's move
 * @property {(() => void)[]} afterRack actions waiting until our rack moves are acknowledged (a lock-in)
 * @property {boolean} suppressClick a drag just ended: its click is not a tap
 * @property {boolean} outerClock the page draws the clock in the table card's header
 */

/** @typedef {GameScreen<LineupInputState>} LineupScreen */

(function () {
  "use strict";

  const { gettext, interpolate: fmt, screenModule, registerGame } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");
  const { miniName, nameOf, describe, phaseTitle, isLive, pausedClock, shownRack, view } = pieces;

  const DRAG_THRESHOLD = 8;
  const RACK_GAP_MS = 125;

  /** @returns {LineupInputState} */
  function freshState() {
    return {
      lastLog: null,
      questionKey: null,
      selected: null,
      starCard: null,
      starPlace: null,
      pending: null,
      inflight: false,
      queued: null,
      lastSent: 0,
      error: null,
      rackSeen: null,
      afterRack: [],
      suppressClick: false,
      outerClock: false,
    };
  }

  // ----------------------------------------------------------------------------------------------
  // Sending
  // ----------------------------------------------------------------------------------------------

  /** @param {LineupScreen} screen @param {object} action @param {(ok: boolean, ack?: any) => void} [onDone] */
  function send(screen, action, onDone) {
    const state = screen.state;
    state.error = null;
    const promise = Promise.resolve(screen.ctx.act(action));
    promise.then(
      (ack) => onDone && onDone(true, ack),
      (err) => {
        state.error = (err && err.message) || gettext("That did not work. Try again.");
        if (screen.ctx.announce) screen.ctx.announce(state.error);
        if (onDone) onDone(false);
        screen.redraw();
      }
    );
    return promise;
  }

  /** @param {number[]} order @param {number} card @param {number} toIndex */
  function moveCard(order, card, toIndex) {
    const next = order.filter((c) => c !== card);
    next.splice(Math.max(0, Math.min(4, toIndex)), 0, card);
    return next;
  }

  /** @param {number[]} order @param {number} a @param {number} b */
  function swapCards(order, a, b) {
    const next = order.slice();
    const i = next.indexOf(a);
    const j = next.indexOf(b);
    next[i] = b;
    next[j] = a;
    return next;
  }

  // The rack is sent on every move, one message in flight at a time (the latest order waits its turn).
  // Until a view at least as new as the acknowledgement arrives, this device shows its own order: the ack
  // may come before the new view, and a quick second move must not start from the old rack.
  /** @param {LineupScreen} screen @param {number[]} order */
  function sendRack(screen, order) {
    const state = screen.state;
    state.pending = { key: state.questionKey, order, ackSeq: null };
    if (state.inflight) {
      state.queued = order;
      return;
    }
    state.inflight = true;
    // At most one rack message every RACK_GAP_MS: a held arrow key must not trip the server's rate limit.
    const wait = Math.max(0, state.lastSent + RACK_GAP_MS - Date.now());
    const host = screen.root;
    const go = () => {
      delete host.dataset.rackWaiting;
      state.lastSent = Date.now();
      const latest = state.queued || order;
      state.queued = null;
      send(screen, { type: "rack", order: latest }, done);
    };
    /** @param {boolean} ok @param {any} [ack] */
    const done = (ok, ack) => {
      state.inflight = false;
      if (state.queued) {
        const next = state.queued;
        state.queued = null;
        sendRack(screen, next);
        return;
      }
      if (ok && ack && typeof ack.seq === "number" && state.pending) state.pending.ackSeq = ack.seq;
      else state.pending = null;
      const waiting = state.afterRack.splice(0);
      waiting.forEach((fn) => fn());
      screen.redraw();
    };
    if (wait > 0) {
      host.dataset.rackWaiting = "1"; // tests wait for it; nothing to see
      setTimeout(go, wait);
    } else go();
  }

  /** @param {LineupScreen} screen @param {number[]} order @param {string} said */
  function setRack(screen, order, said) {
    sendRack(screen, order);
    screen.state.selected = null;
    if (said && screen.ctx.announce) screen.ctx.announce(said);
    screen.redraw();
  }

  /** A lock-in waits for this device's own rack moves, so the order the captain sees is the one locked.
   *  @param {LineupScreen} screen */
  function confirm(screen) {
    const lockIn = () => send(screen, { type: "confirm" });
    if (screen.state.inflight) screen.state.afterRack.push(lockIn);
    else lockIn();
  }

  // ----------------------------------------------------------------------------------------------
  // The rack: taps and keys
  // ----------------------------------------------------------------------------------------------

  /** @param {LineupScreen} screen @param {number} card */
  function pickOrSwap(screen, card) {
    const { state, ctx } = screen;
    const order = shownRack(screen);
    if (state.selected === null || !order.includes(state.selected)) {
      state.selected = card;
      if (ctx.announce) ctx.announce(fmt(gettext("Card %(card)s picked up. Choose the card to swap it with."), { card }));
      screen.redraw();
    } else if (state.selected === card) {
      state.selected = null;
      if (ctx.announce) ctx.announce(fmt(gettext("Card %(card)s put back."), { card }));
      screen.redraw();
    } else {
      const other = state.selected;
      setRack(screen, swapCards(order, other, card), fmt(gettext("Cards %(a)s and %(b)s swapped."), { a: other, b: card }));
    }
  }

  /** @param {LineupScreen} screen @param {KeyboardEvent} event @param {number} card */
  function rackKey(screen, event, card) {
    const order = shownRack(screen);
    const index = order.indexOf(card);
    let to = null;
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = index - 1;
    else if (event.key === "ArrowRight" || event.key === "ArrowDown") to = index + 1;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = 4;
    else if (/^[1-5]$/.test(event.key)) to = Number(event.key) - 1;
    else if (event.key === "Escape" && screen.state.selected !== null) {
      event.preventDefault();
      screen.state.selected = null;
      screen.redraw();
      return;
    } else return;
    event.preventDefault();
    if (to < 0 || to > 4 || to === index) return;
    setRack(screen, moveCard(order, card, to), fmt(gettext("Card %(card)s moved to place %(place)s."), { card, place: to + 1 }));
  }

  // ----------------------------------------------------------------------------------------------
  // The rack: pointer dragging (mouse, pen and touch alike). While a card is dragged the screen holds its
  // redraws back (the card stays under the finger); what arrived meanwhile is drawn at the drop.
  // ----------------------------------------------------------------------------------------------

  /**
   * The press on a rack card that may become a drag (one at a time on a page).
   * @type {{screen: LineupScreen, card: number, el: HTMLElement, rack: Element, order: number[],
   *   key: string | null, x: number, y: number, id: number, moving: boolean, target: number | null} | null}
   */
  let press = null;

  /** @param {LineupScreen} screen @param {PointerEvent} event */
  function dragStart(screen, event) {
    const el = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("[data-rack] button[data-card]"));
    if (!el || !screen.root.contains(el) || el.disabled || event.button !== 0 || press) return;
    const order = shownRack(screen);
    const card = Number(el.dataset.card);
    const rack = /** @type {Element} */ (el.closest("[data-rack]"));
    press = { screen, card, el, rack, order, key: screen.state.questionKey, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false, target: null };
    try {
      el.setPointerCapture(event.pointerId);
    } catch (_e) {
      /* the pointer may be gone already */
    }
  }

  /** @param {PointerEvent} event */
  function dragMove(event) {
    const d = press;
    if (!d || event.pointerId !== d.id) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.moving = true;
      d.screen.hold();
      d.el.classList.add("lu-dragging");
    }
    event.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px)`;
    let best = null;
    let bestDistance = Infinity;
    for (const slot of d.rack.querySelectorAll("[data-slot]")) {
      const r = slot.getBoundingClientRect();
      const distance = Math.hypot(event.clientX - (r.left + r.width / 2), event.clientY - (r.top + r.height / 2));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = slot;
      }
      slot.classList.remove("lu-drop-target");
    }
    if (best) best.classList.add("lu-drop-target");
    d.target = best ? Number(best.dataset.slot) - 1 : null;
  }

  /** @param {PointerEvent} event */
  function dragEnd(event) {
    const d = press;
    if (!d || event.pointerId !== d.id) return;
    press = null;
    if (!d.moving) return; // a tap: the click handler picks the card up
    const screen = d.screen;
    screen.state.suppressClick = true;
    setTimeout(() => {
      screen.state.suppressClick = false;
    }, 0);
    screen.release(); // a newer view that arrived during the drag
    const from = d.order.indexOf(d.card);
    const sameQuestion = d.key === screen.state.questionKey;
    if (event.type !== "pointercancel" && d.target !== null && d.target !== from && sameQuestion) {
      const place = d.target + 1;
      setRack(screen, moveCard(d.order, d.card, d.target), fmt(gettext("Card %(card)s moved to place %(place)s."), { card: d.card, place }));
    } else {
      screen.redraw(); // the card back in its place
    }
  }

  window.addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragEnd);

  // ----------------------------------------------------------------------------------------------
  // The star turn: a card and a place make a suggestion, chosen in either order
  // ----------------------------------------------------------------------------------------------

  /** @param {LineupScreen} screen @param {number} card @param {number} place */
  function suggest(screen, card, place) {
    screen.state.starCard = null;
    screen.state.starPlace = null;
    send(screen, { type: "lay", card, position: place });
    if (screen.ctx.announce) screen.ctx.announce(fmt(gettext("Suggested: card %(card)s in place %(place)s."), { card, place }));
  }

  /** @param {LineupScreen} screen @param {number} place */
  function choosePlace(screen, place) {
    const { state, ctx } = screen;
    if (state.starCard !== null) return suggest(screen, state.starCard, place);
    state.starPlace = state.starPlace === place ? null : place;
    if (state.starPlace !== null && ctx.announce) ctx.announce(fmt(gettext("Place %(place)s: now choose the card for it."), { place }));
    screen.redraw();
  }

  /** @param {LineupScreen} screen @param {number} card */
  function chooseCard(screen, card) {
    const { state, ctx } = screen;
    if (state.starPlace !== null) return suggest(screen, card, state.starPlace);
    state.starCard = state.starCard === card ? null : card;
    if (state.starCard !== null && ctx.announce) ctx.announce(fmt(gettext("Card %(card)s: now choose its place."), { card }));
    screen.redraw();
  }

  // ----------------------------------------------------------------------------------------------
  // The screen's input: bound once per root, told of each message, and after each draw
  // ----------------------------------------------------------------------------------------------

  /** What a tapped button does, from the data-* attributes the view drew. @param {LineupScreen} screen
   *  @param {HTMLButtonElement} button @param {Event} event */
  function onButton(screen, button, event) {
    const { card, value, place, action } = button.dataset;
    if (card && button.closest("[data-rack]")) {
      if (screen.state.suppressClick) {
        screen.state.suppressClick = false;
        event.preventDefault();
        return;
      }
      pickOrSwap(screen, Number(card));
    } else if (card && button.closest("[data-star-hand]")) chooseCard(screen, Number(card));
    else if (place) choosePlace(screen, Number(place));
    else if (value) {
      const picker = /** @type {HTMLElement} */ (button.closest("[data-picker]"));
      send(screen, { type: picker.dataset.picker, value: Number(value) });
    } else if (action === "confirm") confirm(screen);
    else if (action === "stop" || action === "hold" || action === "continue") send(screen, { type: action });
  }

  /** @param {LineupScreen} screen */
  function bind(screen) {
    const root = screen.root;
    root.addEventListener("click", (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button"));
      if (button && root.contains(button) && !button.disabled) onButton(screen, button, event);
    });
    root.addEventListener("keydown", (event) => {
      const card = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-rack] button[data-card]"));
      if (card && root.contains(card)) rackKey(screen, event, Number(card.dataset.card));
    });
    root.addEventListener("pointerdown", (event) => dragStart(screen, event));
  }

  /** A new message: forget the picks it made stale, take back our rack once the view has it, and say
   *  what changed. @param {LineupScreen} screen */
  function receive(screen) {
    const { state, table, root } = screen;
    const view = table.view || {};
    const key = `${table.table}:${view.question_serial}:${view.phase}:${view.final ? view.final.attempt : ""}`;
    if (key !== state.questionKey) {
      state.questionKey = key;
      state.selected = null;
      state.starCard = null;
      state.starPlace = null;
      state.error = null;
    }
    const pending = state.pending;
    if (pending && pending.ackSeq !== null && table.seq >= pending.ackSeq) state.pending = null;
    if (view.star) {
      const laid = view.star.laid;
      if (laid.some((c) => c.card === state.starCard)) state.starCard = null;
      if (laid.some((c) => c.position === state.starPlace)) state.starPlace = null;
    }
    // A page controller that draws the table's countdown itself (session.js puts one in the card's
    // header) needs no second one from us.
    const card = root.closest("[data-table-id]");
    state.outerClock = Boolean(card && Array.from(card.querySelectorAll(".countdown")).find((el) => !root.contains(el)));
    announceNews(screen);
  }

  /** @param {LineupScreen} screen */
  function announceNews(screen) {
    const { state, ctx } = screen;
    const view = screen.table.view;
    const role = ctx.role;
    const words = [];
    // A teammate's rack move is not in the public log: say it on the team's devices.
    if (role === "player" && view.my_team && view.my_team.rack && view.you) {
      const by = view.my_team.rack_by;
      const rack = view.my_team.rack.join(",");
      if (by && by !== view.you.id && state.rackSeen !== null && rack !== state.rackSeen) {
        words.push(fmt(gettext("%(name)s moved the cards: %(order)s."), { name: nameOf(view, by), order: view.my_team.rack.join(", ") }));
      }
      state.rackSeen = rack;
    } else {
      state.rackSeen = null;
    }
    const log = view.log || [];
    const newest = log.length ? log[log.length - 1].n : 0;
    if (state.lastLog === null) {
      // The first picture: say where we are, not the whole history.
      state.lastLog = newest;
      if (role === "player" && view.phase && !view.over) words.push(`${miniName(view.mini)}. ${phaseTitle(view)}.`);
    } else {
      const fresh = log.filter((entry) => entry.n > state.lastLog);
      state.lastLog = Math.max(state.lastLog, newest);
      for (const entry of fresh) words.push(describe(entry, view));
    }
    const text = words.filter(Boolean).join(" ");
    if (text && ctx.announce) ctx.announce(text);
  }

  /** After each draw: the clock beside the move, and the projector's fit. @param {LineupScreen} screen */
  function drawn(screen) {
    const { root, ctx, table } = screen;
    const view = table.view;
    const clock = root.querySelector(".lu-clock");
    if (clock instanceof HTMLElement && typeof ctx.countdown === "function") {
      const live = isLive(view, table);
      const paused = pausedClock(view, table);
      ctx.countdown(clock, live && !paused ? view.clock.deadline : null);
      if (paused) clock.textContent = paused;
    }
    const drawnScreen = root.firstElementChild;
    if (ctx.role === "projector" && drawnScreen instanceof HTMLElement) fitProjector(drawnScreen);
  }

  // The projector shows the whole table at once: when it is taller than the screen below the page's own
  // header, it is drawn smaller (CSS zoom re-flows it, so long cards take fewer lines), never cut.
  const PROJECTOR_MIN_ZOOM = 0.5;

  /** @param {HTMLElement} screen */
  function fitProjector(screen) {
    if (!screen.isConnected) return;
    screen.style.zoom = "";
    const card = screen.closest(".table-card");
    const style = card ? getComputedStyle(card) : null;
    const below = style ? parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) : 0;
    const available = window.innerHeight - screen.getBoundingClientRect().top - below - 8;
    const fits = () => screen.getBoundingClientRect().height <= available + 0.5;
    let zoom = 1;
    if (!fits()) {
      // The largest zoom that fits (a smaller zoom also re-flows the text into fewer lines).
      let low = PROJECTOR_MIN_ZOOM;
      let high = 1;
      for (let i = 0; i < 8; i++) {
        const mid = (low + high) / 2;
        screen.style.zoom = String(mid);
        if (fits()) low = mid;
        else high = mid;
      }
      zoom = low;
      screen.style.zoom = String(zoom);
    }
    screen.dataset.zoom = zoom.toFixed(3);
  }

  const fitAll = () => document.querySelectorAll(".lu-projector").forEach((el) => fitProjector(/** @type {HTMLElement} */ (el)));
  // Fitted at once, so the resized window shows the right size in its next frame.
  window.addEventListener("resize", fitAll);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitAll);

  const module = screenModule("lineup", { state: freshState, view, input: { bind, receive, drawn } });
  pieces.module = module; // the How to play page's practice rack (practice.js) renders through it
  registerGame("lineup", module);
})();
