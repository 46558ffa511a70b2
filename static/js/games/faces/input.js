/* Line-Up's input: questions, naming a face, getting ready and resigning on the student's device, the keys,
 * and what is announced. It keeps the screen's input state (FacesInputState), sends moves through ctx.act
 * and asks for a redraw; the view (words.js, art.js, board.js, view.js) draws from that state. Registers
 * the game's screen (docs/frontend.md).
 *
 * Keys on the student's device (docs/games/faces.md): a letter A-Z names the face whose name starts with it
 * (then Enter or the "Yes" button confirms, Escape cancels); Tab moves through the question pad and the faces.
 */

/**
 * The viewer's input in progress, kept per table root across redraws.
 * @typedef {object} FacesInputState
 * @property {string | null} confirm the face being named, waiting for "Yes"
 * @property {boolean} resign the resignation waiting for "Yes"
 * @property {string} error the server's reason for the last refused move (shown until the game moves on)
 * @property {boolean} busy a move is on its way: further taps are ignored until the answer
 * @property {FacesSnapshot | null} seen the moments of the last message, for the announcements
 * @property {string | null} status the table's status in the last message
 */

/** @typedef {GameScreen<FacesInputState>} FacesScreen */

(function () {
  "use strict";

  const { gettext, layoutWall, screenModule, registerGame } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("faces");
  const { canAct, snapshot, newsOf, pausedClockText, describe, faceSvg, view } = pieces;

  /** The projector shows every match of the class at once (28 students: 14 tables): cards of 13 x 10.4
   *  ems, and the CSS sizes the text to the screen (faces.css, .fc-wall), so any number of tables fits
   *  without scrolling or cutting. */
  const WALL = { width: 13, height: 10.4, wallClass: "fc-wall", prefix: "fc" };
  /** Where the focus goes when the focused control is gone or disabled (the turn passed): the status
   *  line, so keyboard users are not dropped to the top of the page. */
  const STATUS = '[data-fk="status"]';

  /** @returns {FacesInputState} */
  function freshState() {
    return { confirm: null, resign: false, error: "", busy: false, seen: null, status: null };
  }

  /** @param {FacesScreen} screen @returns {FacesView} */
  const viewOf = (screen) => /** @type {FacesView} */ ((screen.table && screen.table.view) || {});

  // ------------------------------------------------------------------------------------------------
  // Moves
  // ------------------------------------------------------------------------------------------------

  /** Sends a move; busy until the server answers (controls stay focusable meanwhile). A refusal is shown
   *  and said. @param {FacesScreen} screen @param {object} action @param {string} [doneText] */
  function send(screen, action, doneText) {
    const { state, ctx } = screen;
    state.busy = true;
    state.error = "";
    return Promise.resolve(ctx.act(action))
      .then(() => {
        state.busy = false;
        if (doneText) ctx.announce(doneText);
        screen.redraw();
      })
      .catch((error) => {
        state.busy = false;
        state.error = (error && error.message) || gettext("That did not work. Try again.");
        ctx.announce(state.error);
        screen.redraw();
      });
  }

  /** Draws again, then puts the focus on the control with focus key `key` (else on the status line).
   *  @param {FacesScreen} screen @param {string | null} key */
  function redrawFocusing(screen, key) {
    screen.redraw();
    if (!key) return;
    const wanted = screen.root.querySelector(`[data-fk="${CSS.escape(key)}"]`);
    const target = wanted instanceof HTMLButtonElement && !wanted.disabled ? wanted : screen.root.querySelector(STATUS);
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  }

  /** @param {FacesScreen} screen @param {string} key */
  function askQuestion(screen, key) {
    if (!canAct(viewOf(screen), screen.table) || screen.state.busy) return;
    screen.state.confirm = null;
    send(screen, { type: "ask", question: key });
  }

  /** Naming a face asks first ("Name Ava?"). @param {FacesScreen} screen @param {string} faceId */
  function startNaming(screen, faceId) {
    const view = viewOf(screen);
    if (!canAct(view, screen.table) || screen.state.busy) return;
    if (!view.your_board.left.includes(faceId)) return;
    screen.state.confirm = faceId;
    redrawFocusing(screen, "confirm-yes");
  }

  /** @param {FacesScreen} screen */
  function cancelNaming(screen) {
    const faceId = screen.state.confirm;
    screen.state.confirm = null;
    redrawFocusing(screen, faceId ? "face-" + faceId : null);
  }

  /** @param {FacesScreen} screen */
  function confirmNaming(screen) {
    const faceId = screen.state.confirm;
    screen.state.confirm = null;
    if (faceId) send(screen, { type: "name", face: faceId });
  }

  /** What each button of the view does (its data-action). @type {Record<string, (screen: FacesScreen, button: HTMLElement) => void>} */
  const ACTIONS = {
    ask: (screen, button) => askQuestion(screen, button.dataset.question || ""),
    name: (screen, button) => startNaming(screen, button.dataset.face || ""),
    confirm: (screen) => confirmNaming(screen),
    cancel: (screen) => cancelNaming(screen),
    ready: (screen) => {
      if (!screen.state.busy) send(screen, { type: "ready" }, gettext("Ready."));
    },
    resign: (screen) => {
      screen.state.resign = true;
      redrawFocusing(screen, "resign-no");
    },
    "resign-yes": (screen) => {
      screen.state.resign = false;
      send(screen, { type: "resign" });
    },
    "resign-no": (screen) => {
      screen.state.resign = false;
      redrawFocusing(screen, "resign");
    },
  };

  /** A letter names the face with that letter (asked first); Escape cancels a naming.
   *  @param {FacesScreen} screen @param {KeyboardEvent} event */
  function onKey(screen, event) {
    const { table, ctx, root, state } = screen;
    if (!table || !ctx || ctx.role !== "player" || !root.isConnected) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === "Escape" && state.confirm) {
      event.preventDefault();
      cancelNaming(screen);
      return;
    }
    const view = viewOf(screen);
    if (/^[a-z]$/i.test(event.key) && canAct(view, table)) {
      const id = event.key.toUpperCase();
      if (view.your_board.left.includes(id)) {
        event.preventDefault();
        startNaming(screen, id);
      }
    }
  }

  // ------------------------------------------------------------------------------------------------
  // The screen's input: bound once per root, told of each message, and after each draw
  // ------------------------------------------------------------------------------------------------

  /** @param {FacesScreen} screen */
  function bind(screen) {
    const root = screen.root;
    root.addEventListener("click", (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-action]"));
      if (!button || !root.contains(button) || button.disabled) return;
      const act = ACTIONS[button.dataset.action || ""];
      if (act) act(screen, button);
    });
    document.addEventListener("keydown", (event) => onKey(screen, event));
  }

  /** A new message: drop what it made stale, then say what changed.
   *  @param {FacesScreen} screen @param {TableMessage | null} _previous */
  function receive(screen, _previous) {
    const { state, table, ctx } = screen;
    const view = viewOf(screen);
    // A pending naming or resignation only lasts while it still makes sense.
    if (state.confirm && !(canAct(view, table) && view.your_board && view.your_board.left.includes(state.confirm))) state.confirm = null;
    if (state.resign && (view.phase === "over" || table.status !== "playing")) state.resign = false;
    // A refusal stays on screen until the game moves on (a new turn, phase or round).
    const before = state.seen;
    const now = snapshot(view);
    if (state.error && before && (before.turn !== now.turn || before.phase !== now.phase || before.round !== now.round)) state.error = "";
    const speaks = typeof ctx.announce === "function" && ctx.role === "player";
    if (speaks && view.you && (!before || JSON.stringify(before) !== JSON.stringify(now))) {
      const said = newsOf(view, before);
      if (said.length) ctx.announce(said.join(" "));
    }
    if (speaks && state.status === "playing" && table.status === "ended") ctx.announce(gettext("Your teacher ended this match."));
    state.status = table.status;
    state.seen = now;
  }

  /** After each draw: the clocks, the projector's wall, and on a device's first draw the screen in view.
   *  @param {FacesScreen} screen */
  function drawn(screen) {
    const { root, ctx } = screen;
    const view = viewOf(screen);
    const clock = view.clock || {};
    const paused = pausedClockText(view);
    for (const element of root.querySelectorAll(".fc-clock")) {
      if (!(element instanceof HTMLElement)) continue;
      if (typeof ctx.countdown === "function") ctx.countdown(element, clock.deadline === undefined ? null : clock.deadline);
      if (paused) element.textContent = paused;
    }
    if (ctx.role === "projector") requestAnimationFrame(() => layoutWall(root, WALL));
    const screenEl = root.firstElementChild;
    if (screen.draws === 1 && ctx.role === "player" && view.you && window.scrollY === 0 && screenEl && typeof screenEl.scrollIntoView === "function") {
      // A game screen: when it first appears, bring the status line and the board into view (the site's
      // header and the page title above it are not needed while playing). Never fights a reader's scroll.
      screenEl.scrollIntoView({ block: "start", behavior: "instant" });
    }
  }

  const module = screenModule("faces", {
    state: freshState,
    view,
    input: { bind, receive, drawn },
    focusFallback: STATUS,
  });
  // The drawing and the description, for the tests that compare them with the server's (pure helpers).
  registerGame("faces", Object.assign(module, { faceSvg, describe }));
})();
