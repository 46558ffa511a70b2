/* Mind the Lines' input: the pen and the eraser on the board (pointer and keys), the buttons, what is sent
 * and what is announced. It keeps the screen's input state (MindlinesInputState), sends moves through
 * ctx.act and asks for a redraw; the view (words.js, board.js, view.js) draws from that state. Registers
 * the game's screen (docs/frontend.md).
 *
 * Keyboard (documented in the how-to-play page): focus the board, then
 *   arrow keys            move the pen one dot (pen up) or draw half a line (pen down);
 *   Home / PageUp / End / PageDown (or Q / E / Z / C)  the same, diagonally (up-left, up-right, down-left,
 *                         down-right);
 *   Space or Enter        put the pen down on the dot / lift it (the stroke is sent);
 *                         with the eraser: rub out the ink touching the pen's dot;
 *   Escape                drop the stroke being drawn;  U or Ctrl+Z  undo;  P pen, X eraser.
 * Directions are as the board is shown (turned), not as it is stored.
 */

/** A stroke sent and not yet in the view: drawn pale, kept in the device's draft until acknowledged.
 *  @typedef {{pieces: MindlinesPiece[], halves: number[][], seq: number | null}} MindlinesPending */

/**
 * A pointer stroke or rub in progress on the board (the board is held: no redraw until it ends).
 * @typedef {object} MindlinesDrag
 * @property {"draw" | "rub"} kind
 * @property {number} pointer the pointer's id
 * @property {SVGSVGElement} svg
 * @property {SVGGraphicsElement} group the turned group, whose matrix maps the pointer onto the board
 * @property {any} pen the board's Pen
 * @property {MindlinesPenPosition} [pos] the pen's place (draw)
 * @property {Set<string>} halves the halves drawn (draw)
 * @property {number[]} [start] where the rub started (rub)
 * @property {number[] | null} from the rub's last point
 * @property {number} travel how far the rub went
 * @property {Set<string>} rubbed the halves rubbed out
 * @property {number[][][]} strokes each drawn stroke's halves (rub)
 */

/**
 * The viewer's input in progress, kept per table root across redraws.
 * @typedef {object} MindlinesInputState
 * @property {"pen" | "eraser"} tool
 * @property {MindlinesPending[]} pending
 * @property {number | null} selectedCard the card picked to exclude
 * @property {boolean} confirmDone
 * @property {boolean} confirmClear
 * @property {MindlinesPenPosition} cursor the keyboard's pen, lifted
 * @property {{pos: MindlinesPenPosition, halves: Set<string>} | null} penDown the keyboard's stroke in progress
 * @property {MindlinesDrag | null} drag
 * @property {string} announced the phase (and turn) last announced
 * @property {number | null} logSeen the time of the last exclusion announced
 * @property {number} lastSeq
 * @property {string} message
 * @property {boolean} hideConcept
 * @property {string} roundKey
 * @property {string | null} unsentKey the draft that keeps this round's unacknowledged strokes
 */

/** @typedef {GameScreen<MindlinesInputState>} MindlinesScreen */

(function () {
  "use strict";

  const { gettext, interpolate, screenModule, registerGame } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("mindlines");
  const { GRID, MAX_PIECES, KEYBOARD_ERASE_RADIUS, TAP_TRAVEL, KEY_DIRECTIONS, keyOf, parseKey } = pieces;
  const { halvesOfStroke, piecesOf, chunks, pathOfHalves, unrotate, Pen, strokeNear, rubAt, rubAlong } = pieces;
  const { exclusionText, phaseNews, view, roleOf, sceneOf, fitBoard, fitProjector } = pieces;

  /** @returns {MindlinesInputState} */
  function freshState() {
    return {
      tool: "pen",
      pending: [],
      selectedCard: null,
      confirmDone: false,
      confirmClear: false,
      cursor: { X: 10, Y: 10, seg: null },
      penDown: null,
      drag: null,
      announced: "",
      logSeen: null,
      lastSeq: 0,
      message: "",
      hideConcept: false,
      roundKey: "",
      unsentKey: null,
    };
  }

  /** The viewer's own board while it may be drawn on. @param {MindlinesScreen} screen */
  function editableDrawing(screen) {
    const view = screen.table.view;
    const live = screen.table.status === "playing";
    return live && view.me && view.phase === "scribbling" && !view.me.drawing.shown ? view.me.drawing : null;
  }

  // ------------------------------------------------------------------------------------------------
  // Sending
  // ------------------------------------------------------------------------------------------------

  /** @param {MindlinesScreen} screen @param {object} action */
  function send(screen, action) {
    const { ctx } = screen;
    return Promise.resolve(ctx.act(action)).catch((error) => {
      const message = (error && error.message) || gettext("That did not work. Try again.");
      screen.state.message = message;
      ctx.announce(message);
      screen.redraw();
      throw error;
    });
  }

  /** Sends a move and lets its refusal be said (send) without anything else to do. */
  const sendQuietly = (/** @type {MindlinesScreen} */ screen, /** @type {object} */ action) => send(screen, action).catch(() => {});

  /** @param {MindlinesScreen} screen @param {Iterable<string>} halfKeys */
  function sendStroke(screen, halfKeys) {
    const found = piecesOf(halfKeys);
    if (!found.length) return;
    screen.state.message = "";
    for (const part of chunks(found, MAX_PIECES)) sendPieces(screen, part);
    screen.redraw();
  }

  /** One stroke action. Until it is acknowledged it is drawn pale and kept in the device's draft, so a
   *  reload or a dropped connection does not lose it (see restoreUnsent).
   *  @param {MindlinesScreen} screen @param {MindlinesPiece[]} part */
  function sendPieces(screen, part) {
    const { state, ctx } = screen;
    /** @type {MindlinesPending} */
    const pending = { pieces: part, halves: halvesOfStroke(part), seq: null };
    state.pending.push(pending);
    saveUnsent(screen);
    Promise.resolve(ctx.act({ type: "stroke", segments: part })).then(
      (ack) => {
        pending.seq = ack.seq;
        saveUnsent(screen);
        if (state.lastSeq >= ack.seq) dropPending(screen, pending);
      },
      (error) => {
        dropPending(screen, pending);
        saveUnsent(screen);
        state.message = (error && error.message) || gettext("That line could not be drawn.");
        ctx.announce(state.message);
        screen.redraw();
      },
    );
  }

  /** @param {MindlinesScreen} screen */
  function saveUnsent(screen) {
    const { state, ctx } = screen;
    if (!ctx.saveDraft || !state.unsentKey) return;
    const unsent = state.pending.filter((pending) => pending.seq === null).map((pending) => pending.pieces);
    ctx.saveDraft(state.unsentKey, unsent.length ? JSON.stringify(unsent) : "");
  }

  /** After a reload: strokes this device drew but never saw acknowledged are sent again, unless the
   *  board already has them (the server got them and only the acknowledgement was lost).
   *  @param {MindlinesScreen} screen @param {MindlinesOwnDrawing} drawing */
  function restoreUnsent(screen, drawing) {
    const { state, ctx } = screen;
    if (!ctx.draft || !state.unsentKey) return;
    let unsent = [];
    try {
      unsent = JSON.parse(ctx.draft(state.unsentKey) || "[]");
    } catch (_error) {
      unsent = [];
    }
    if (!Array.isArray(unsent) || !unsent.length) return;
    /** @param {string[]} a @param {string[]} b */
    const sameInk = (a, b) => a.length === b.length && a.every((key) => b.includes(key));
    const onBoard = drawing.strokes.map((stroke) => halvesOfStroke(stroke).map(keyOf));
    for (const part of unsent) {
      if (!Array.isArray(part) || !part.length) continue;
      const halves = halvesOfStroke(part).map(keyOf);
      if (!onBoard.some((keys) => sameInk(keys, halves))) sendPieces(screen, part);
    }
    saveUnsent(screen);
  }

  /** @param {MindlinesScreen} screen @param {MindlinesPending} pending */
  function dropPending(screen, pending) {
    const index = screen.state.pending.indexOf(pending);
    if (index >= 0) {
      screen.state.pending.splice(index, 1);
      screen.redraw();
    }
  }

  /** @param {MindlinesScreen} screen @param {Iterable<string>} halfKeys */
  function sendErase(screen, halfKeys) {
    const found = piecesOf(halfKeys);
    for (const part of chunks(found, MAX_PIECES)) sendQuietly(screen, { type: "erase", segments: part });
  }

  // ------------------------------------------------------------------------------------------------
  // Buttons (data-action)
  // ------------------------------------------------------------------------------------------------

  /** @param {MindlinesScreen} screen @param {HTMLButtonElement} button */
  function actOn(screen, button) {
    const { state, ctx, table } = screen;
    const view = table.view;
    const drawing = view.me ? view.me.drawing : null;
    const action = button.dataset.action;
    const redrawn = () => screen.redraw();
    if (action === "ready") sendQuietly(screen, { type: "ready" });
    else if (action === "continue") sendQuietly(screen, { type: "continue" });
    else if (action === "toggle-concept") {
      state.hideConcept = !state.hideConcept;
      redrawn();
    } else if (action === "tool") {
      state.tool = button.dataset.tool === "eraser" ? "eraser" : "pen";
      if (ctx.saveDraft) ctx.saveDraft(`mindlines:tool:${table.table}:${view.round}`, state.tool);
      redrawn();
    } else if (action === "undo") sendQuietly(screen, { type: "undo" });
    else if (action === "clear" || action === "clear-no") {
      state.confirmClear = action === "clear";
      redrawn();
    } else if (action === "clear-yes") {
      state.confirmClear = false;
      sendQuietly(screen, { type: "clear" });
    } else if (action === "side" && drawing) sendQuietly(screen, { type: "side", side: 1 - drawing.side });
    else if (action === "turn" && drawing) {
      const rotation = (((drawing.rotation + Number(button.dataset.turn)) % 360) + 360) % 360;
      send(screen, { type: "rotate", rotation }).then(() => ctx.announce(interpolate(
        gettext("Board turned: %(degrees)s degrees"), { degrees: rotation },
      ))).catch(() => {});
    } else if (action === "done" || action === "done-no") {
      state.confirmDone = action === "done";
      redrawn();
    } else if (action === "done-yes") {
      state.confirmDone = false;
      send(screen, { type: "done" }).then(() => ctx.announce(gettext("Your drawing is shown."))).catch(() => {});
    } else if (action === "pick") {
      const card = Number(button.dataset.card);
      state.selectedCard = state.selectedCard === card ? null : card;
      redrawn();
    } else if (action === "exclude") {
      const card = state.selectedCard;
      state.selectedCard = null;
      sendQuietly(screen, { type: "exclude", card });
    } else if (action === "exclude-cancel") {
      state.selectedCard = null;
      redrawn();
    } else if (action === "hide") {
      const hidden = button.dataset.hidden === "true";
      send(screen, { type: hidden ? "unhide" : "hide", player: button.dataset.player })
        .then(() => ctx.announce(hidden ? gettext("Drawing shown again") : gettext("Drawing hidden")))
        .catch(() => {});
    }
  }

  // ------------------------------------------------------------------------------------------------
  // The pen and the eraser with a pointer (mouse, touch, pen). The board is held while a finger is on
  // it: a change that arrives meanwhile is drawn when the stroke ends, never pulled from under a finger.
  // ------------------------------------------------------------------------------------------------

  /** The board's point under a pointer, in dots. @param {MindlinesDrag | {svg: SVGSVGElement, group: SVGGraphicsElement}} on
   *  @param {PointerEvent} event */
  function toBoard({ svg, group }, event) {
    const matrix = group.getScreenCTM();
    if (!matrix) return null;
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(matrix.inverse());
    return [local.x, local.y];
  }

  /** @param {MindlinesScreen} screen @param {PointerEvent} event */
  function startDrag(screen, event) {
    const { state } = screen;
    const svg = /** @type {SVGSVGElement | null} */ (/** @type {Element} */ (event.target).closest("svg[data-pen]"));
    const drawing = editableDrawing(screen);
    if (!svg || !drawing || !screen.root.contains(svg)) return;
    if (event.button !== undefined && event.button > 0) return;
    if (state.drag) {
      // a second finger (or a palm resting on the tablet) while one draws: it neither draws nor ends
      // the stroke, and it does not scroll or zoom the page either
      event.preventDefault();
      return;
    }
    const group = /** @type {SVGGraphicsElement} */ (svg.getElementsByClassName("ml-turn")[0]);
    const at = toBoard({ svg, group }, event);
    if (!at) return;
    event.preventDefault();
    svg.focus({ preventScroll: true });
    state.message = "";
    const pen = new Pen(drawing.sides[drawing.side]);
    const base = { pointer: event.pointerId, svg, group, pen, halves: new Set(), rubbed: new Set(), from: null, travel: 0, strokes: [] };
    if (state.tool === "eraser") {
      state.drag = { ...base, kind: "rub", from: at, start: at, strokes: drawing.strokes.map((stroke) => halvesOfStroke(stroke)) };
      rubAt(state.drag, at);
    } else {
      const start = pen.nearest(at[0], at[1]);
      if (!start) {
        state.message = gettext("Start on a dotted line: you can only draw on the lines.");
        screen.redraw();
        return;
      }
      state.drag = { ...base, kind: "draw", pos: start };
    }
    screen.hold();
    try {
      svg.setPointerCapture(event.pointerId);
    } catch (_error) {
      /* a synthetic pointer has nothing to capture */
    }
  }

  /** Follows the pointer (every coalesced event): the pen along the lines, or the eraser over the ink.
   *  @param {MindlinesDrag} drag @param {PointerEvent} event */
  function moveDrag(drag, event) {
    const events = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
    for (const each of events.length ? events : [event]) {
      const at = toBoard(drag, each);
      if (!at) continue;
      if (drag.kind === "draw") {
        const walked = drag.pen.follow(drag.pos, at[0], at[1]);
        drag.pos = walked.pos;
        for (const half of walked.covered) drag.halves.add(keyOf(half));
      } else {
        rubAlong(drag, at);
      }
    }
    // drawn straight on the held board (no redraw while a finger is on it)
    const live = drag.svg.querySelector(drag.kind === "draw" ? ".ml-live" : ".ml-rub");
    const halves = drag.kind === "draw" ? drag.halves : drag.rubbed;
    if (live) live.setAttribute("d", pathOfHalves([...halves].map(parseKey)));
  }

  /** @param {MindlinesScreen} screen @param {PointerEvent} event @param {boolean} cancelled */
  function endDrag(screen, event, cancelled) {
    const { state } = screen;
    const drag = state.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    if (!cancelled) moveDrag(drag, event);
    state.drag = null;
    screen.release();
    if (cancelled) return screen.redraw(); // the live ink goes
    if (drag.kind === "draw") {
      if (drag.halves.size) sendStroke(screen, drag.halves);
      else screen.redraw();
    } else if (drag.travel < TAP_TRAVEL) {
      const index = strokeNear(drag.strokes, drag.start);
      screen.redraw();
      if (index !== null) sendQuietly(screen, { type: "erase", stroke: index });
    } else {
      screen.redraw();
      if (drag.rubbed.size) sendErase(screen, drag.rubbed);
    }
  }

  // ------------------------------------------------------------------------------------------------
  // The pen and the eraser with the keyboard (the board focused)
  // ------------------------------------------------------------------------------------------------

  /** @param {MindlinesScreen} screen @param {KeyboardEvent} event */
  function onBoardKey(screen, event) {
    const { state, ctx } = screen;
    const drawing = editableDrawing(screen);
    if (!drawing) return;
    const pen = new Pen(drawing.sides[drawing.side]);
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if ((key === "z" && (event.ctrlKey || event.metaKey)) || key === "u") {
      event.preventDefault();
      if (drawing.can_undo) sendQuietly(screen, { type: "undo" });
      return;
    }
    if (key === "p" || key === "x") {
      event.preventDefault();
      state.tool = key === "p" ? "pen" : "eraser";
      state.penDown = null;
      ctx.announce(state.tool === "pen" ? gettext("Pen") : gettext("Eraser"));
      screen.redraw();
      return;
    }
    if (KEY_DIRECTIONS[key] && !(key.length === 1 && (event.ctrlKey || event.metaKey || event.altKey))) {
      event.preventDefault();
      movePen(screen, pen, unrotate(KEY_DIRECTIONS[key], drawing.rotation));
      return;
    }
    if (key === " " || key === "Enter") {
      event.preventDefault();
      if (state.tool === "eraser") {
        const rub = { rubbed: new Set(), strokes: drawing.strokes.map((stroke) => halvesOfStroke(stroke)), travel: 0, from: null };
        rubAt(rub, [state.cursor.X / 2, state.cursor.Y / 2], KEYBOARD_ERASE_RADIUS);
        if (rub.rubbed.size) sendErase(screen, rub.rubbed);
        else ctx.announce(gettext("There is nothing to erase there."));
        return;
      }
      if (state.penDown) {
        const halves = state.penDown.halves;
        state.cursor = state.penDown.pos;
        state.penDown = null;
        if (halves.size) sendStroke(screen, halves);
        else screen.redraw();
        ctx.announce(gettext("Pen up"));
      } else if (pen.points.has(keyOf([state.cursor.X / 2, state.cursor.Y / 2])) && state.cursor.seg === null) {
        state.penDown = { pos: { ...state.cursor }, halves: new Set() };
        screen.redraw();
        ctx.announce(gettext("Pen down: use the arrow keys to draw along the lines."));
      } else {
        ctx.announce(gettext("Move to a dot on a dotted line first."));
      }
      return;
    }
    if (key === "Escape" && state.penDown) {
      event.preventDefault();
      state.penDown = null;
      screen.redraw();
      ctx.announce(gettext("Stroke dropped"));
    }
  }

  /** One key's move of the keyboard's pen: half a line when it is down, a dot when it is up.
   *  @param {MindlinesScreen} screen @param {any} pen @param {number[]} direction the board's own */
  function movePen(screen, pen, [dx, dy]) {
    const { state, ctx } = screen;
    if (state.penDown) {
      const move = pen.moves(state.penDown.pos).find((/** @type {MindlinesPenMove} */ m) => m.dir[0] === dx && m.dir[1] === dy);
      if (!move) {
        ctx.announce(gettext("No dotted line that way."));
        return;
      }
      state.penDown.pos = move.next;
      state.penDown.halves.add(keyOf(move.half));
    } else {
      const cursor = state.cursor;
      const base = cursor.seg === null ? cursor : { X: 2 * Math.round(cursor.X / 2), Y: 2 * Math.round(cursor.Y / 2) };
      const X = Math.min(2 * (GRID - 1), Math.max(0, base.X + 2 * dx));
      const Y = Math.min(2 * (GRID - 1), Math.max(0, base.Y + 2 * dy));
      state.cursor = { X, Y, seg: null };
      const touching = pen.points.has(keyOf([X / 2, Y / 2]));
      ctx.announce(touching ? gettext("On a dotted line") : gettext("Not on a line"));
    }
    screen.redraw();
  }

  // ------------------------------------------------------------------------------------------------
  // The screen's input: bound once per root, told of each message, and after each draw
  // ------------------------------------------------------------------------------------------------

  /** @param {MindlinesScreen} screen */
  function bind(screen) {
    const root = screen.root;
    root.addEventListener("click", (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-action]"));
      if (!button || !root.contains(button) || button.disabled) return;
      actOn(screen, button);
    });
    root.addEventListener("pointerdown", (event) => startDrag(screen, event));
    root.addEventListener("pointermove", (event) => {
      const drag = screen.state.drag;
      if (!drag || !drag.svg.contains(/** @type {Node} */ (event.target))) return;
      event.preventDefault();
      if (drag.pointer === event.pointerId) moveDrag(drag, event);
    });
    root.addEventListener("pointerup", (event) => endDrag(screen, event, false));
    root.addEventListener("pointercancel", (event) => endDrag(screen, event, true));
    root.addEventListener("keydown", (event) => {
      const board = /** @type {Element} */ (event.target).closest("svg[data-pen]");
      if (board && root.contains(board)) onBoardKey(screen, event);
    });
  }

  /** A new message: forget what it made stale, send again what a reload left unsent, announce what
   *  changed. @param {MindlinesScreen} screen @param {TableMessage | null} _previous */
  function receive(screen, _previous) {
    const { state, table, ctx } = screen;
    const view = table.view || {};
    state.lastSeq = Math.max(state.lastSeq, table.seq || 0);
    state.pending = state.pending.filter((pending) => pending.seq === null || pending.seq > state.lastSeq);
    const roundKey = `${view.round}:${view.phase}`;
    if (state.roundKey !== roundKey) {
      if (state.roundKey.split(":")[0] !== String(view.round)) {
        state.hideConcept = false;
        const tool = ctx.draft ? ctx.draft(`mindlines:tool:${table.table}:${view.round}`) : null;
        state.tool = tool === "eraser" ? "eraser" : "pen";
      }
      state.selectedCard = null;
      state.confirmDone = false;
      state.confirmClear = false;
      state.penDown = null;
      state.message = "";
      state.roundKey = roundKey;
    }
    if (view.phase !== "prophesying" || !(view.me && view.me.my_turn)) state.selectedCard = null;
    const drawingNow = view.me && view.phase === "scribbling" && !view.me.drawing.shown ? view.me.drawing : null;
    const unsentKey = drawingNow ? `mindlines:unsent:${table.table}:${view.round}` : null;
    if (unsentKey && state.unsentKey !== unsentKey) {
      state.unsentKey = unsentKey;
      restoreUnsent(screen, drawingNow);
    } else if (!unsentKey) {
      state.unsentKey = null;
    }
    announceChanges(screen);
  }

  /** Phase changes, turns and exclusions, said once each. @param {MindlinesScreen} screen */
  function announceChanges(screen) {
    const { state, table, ctx } = screen;
    const view = table.view || {};
    const me = view.me ? view.me.player : null;
    if (ctx.role === "teacher" || ctx.role === "replay") {
      // the console holds every group: only a group's end is worth interrupting the teacher for
      if (state.announced && state.announced !== "over" && view.phase === "over" && view.result) {
        ctx.announce(interpolate(
          view.result.won ? gettext("Group %(number)s wins.") : gettext("Group %(number)s has lost."),
          { number: table.number },
        ));
      }
      state.announced = view.phase === "over" ? "over" : view.phase;
      return;
    }
    const key = `${view.round}:${view.phase}:${view.turn || ""}`;
    const last = (view.log || []).filter((event) => event.type === "excluded").pop();
    if (state.announced && state.announced !== key) {
      let text = phaseNews(view, me);
      if (last && state.logSeen !== null && last.at !== state.logSeen) {
        text = `${exclusionText(view, last, me)} ${text}`;
      }
      if (text) ctx.announce(text.trim());
    }
    state.announced = key;
    state.logSeen = last ? last.at : 0;
  }

  /** After each draw: the clock, the board's size, the projector's scale. @param {MindlinesScreen} screen */
  function drawn(screen) {
    const { table, ctx } = screen;
    const view = table.view || {};
    const root = /** @type {HTMLElement | null} */ (screen.root.querySelector(".ml-root"));
    if (!root) return;
    const timer = /** @type {HTMLElement | null} */ (root.querySelector(".ml-timer"));
    const showTimer = !ctx.compact && table.status === "playing" && view.phase !== "over";
    const deadline = showTimer && view.clock && view.clock.deadline ? view.clock.deadline : null;
    if (timer && ctx.countdown) ctx.countdown(timer, deadline);
    else if (timer) timer.textContent = "";
    fitBoard(root);
    if (roleOf(sceneOf(screen)) === "projector") fitProjector(root);
  }

  const module = screenModule("mindlines", {
    state: freshState,
    view,
    input: { bind, receive, drawn },
  });
  // exposed for tests and for the replay page's step-through
  const { canonical } = pieces;
  const { drawingLabel, drawnByText, excludedByText, themeName } = pieces;
  registerGame("mindlines", Object.assign(module, {
    _geometry: { piecesOf, halvesOfStroke, canonical, Pen, unrotate },
    // the sentences about a player, as each viewer reads them (tests/i18n/test_viewer_sentences.py)
    helpers: { drawingLabel, drawnByText, excludedByText, exclusionText, themeName },
  }));
})();
