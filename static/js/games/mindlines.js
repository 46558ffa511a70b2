/* Mind the Lines: the game screen for one group (one table), per docs/frontend.md.
 *
 * Roles: "player" (the student's device: read the concept, draw on the dotted lines, exclude, reveal),
 * "teacher" (console, compact: every drawing as it grows, hide/show a drawing), "projector" (large, public
 * only) and "replay" (the teacher's view, no controls).
 *
 * Drawing. The board is a 12 x 12 lattice; a side's dotted lines are unit segments [x1, y1, x2, y2] (the
 * smaller point first). The pen lives on "doubled" coordinates: a dot (x, y) is (2x, 2y) and the middle of
 * a segment is (x1 + x2, y1 + y2), so a pen can stop half-way along a line. Every pen move covers one half
 * of one dotted segment; a stroke is the set of halves it covered, sent as pieces the engine accepts
 * (whole segments merged into straight runs, plus single halves), at most 64 pieces per action. So a
 * stroke can never leave the lines, and its message stays well under the websocket's 16 KB limit
 * (64 pieces of at most 5 small numbers: under 1.5 KB).
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
(function () {
  "use strict";

  const GAME = "mindlines";
  const GRID = 12;
  const MAX_PIECES = 64;
  const MAX_STROKES = 40;
  const MAX_HALVES = 600;
  const START_RADIUS = 0.6; // how near (in dots) a pen must land to a dotted line to start a stroke
  const ERASE_RADIUS = 0.32;
  const KEYBOARD_ERASE_RADIUS = 0.4; // every half touching the pen's dot (a diagonal half's centre is 0.35 away)
  const TAP_TRAVEL = 0.25;
  const DIRECTIONS = [
    [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1],
  ];
  const KEY_DIRECTIONS = {
    ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
    Home: [-1, -1], PageUp: [1, -1], End: [-1, 1], PageDown: [1, 1],
    q: [-1, -1], e: [1, -1], z: [-1, 1], c: [1, 1],
  };

  // ------------------------------------------------------------------------------------------------
  // Translation and small DOM helpers: the shared ones (static/js/games/common.js, loaded first); the
  // /jsi18n/ catalogue of the page's language is global on every page. `s` builds an SVG element.
  // ------------------------------------------------------------------------------------------------

  const { h, svg: s, gettext, ngettext, pgettext, interpolate, registerGame } = window.ClassplayUI;

  function button(label, onclick, attrs) {
    return h("button", { type: "button", onclick, ...(attrs || {}) }, label);
  }

  // ------------------------------------------------------------------------------------------------
  // Geometry: segments, halves, pieces (the same rules as games/engine/mindlines/boards.py)
  // ------------------------------------------------------------------------------------------------

  function canonical(x1, y1, x2, y2) {
    return x1 < x2 || (x1 === x2 && y1 <= y2) ? [x1, y1, x2, y2] : [x2, y2, x1, y1];
  }
  const keyOf = (list) => list.join(",");
  const parseKey = (key) => key.split(",").map(Number);

  function halvesOfStroke(stroke) {
    const halves = [];
    for (const piece of stroke) {
      if (piece.length === 5) {
        halves.push(piece.slice());
        continue;
      }
      const [x1, y1, x2, y2] = piece;
      const steps = Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1));
      const sx = Math.sign(x2 - x1);
      const sy = Math.sign(y2 - y1);
      for (let i = 0; i < steps; i += 1) {
        const seg = canonical(x1 + i * sx, y1 + i * sy, x1 + (i + 1) * sx, y1 + (i + 1) * sy);
        halves.push([...seg, 0], [...seg, 1]);
      }
    }
    return halves;
  }

  /** Pieces for a set of half keys: whole segments joined into straight runs, single halves kept. */
  function piecesOf(halfKeys) {
    const sides = new Map();
    for (const key of halfKeys) {
      const [x1, y1, x2, y2, half] = parseKey(key);
      const seg = keyOf([x1, y1, x2, y2]);
      if (!sides.has(seg)) sides.set(seg, new Set());
      sides.get(seg).add(half);
    }
    const whole = new Set();
    const pieces = [];
    for (const [seg, halves] of sides) {
      if (halves.size === 2) whole.add(seg);
      else for (const half of halves) pieces.push([...parseKey(seg), half]);
    }
    const used = new Set();
    const sorted = [...whole].map(parseKey).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
    for (const [x1, y1, x2, y2] of sorted) {
      if (used.has(keyOf([x1, y1, x2, y2]))) continue;
      const dx = x2 - x1;
      const dy = y2 - y1;
      // the first segment of a run: its predecessor in the same direction is not drawn
      if (whole.has(keyOf([x1 - dx, y1 - dy, x1, y1])) && !used.has(keyOf([x1 - dx, y1 - dy, x1, y1]))) continue;
      let ex = x2;
      let ey = y2;
      used.add(keyOf([x1, y1, x2, y2]));
      while (whole.has(keyOf([ex, ey, ex + dx, ey + dy]))) {
        used.add(keyOf([ex, ey, ex + dx, ey + dy]));
        ex += dx;
        ey += dy;
      }
      pieces.push([x1, y1, ex, ey]);
    }
    for (const seg of whole) {
      if (!used.has(seg)) pieces.push(parseKey(seg)); // cannot happen, but never lose ink
    }
    return pieces;
  }

  function chunks(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
  }

  /** The two end points (in dots) of a half, the first at the segment's end it touches. */
  function halfEnds(half) {
    const [x1, y1, x2, y2, which] = half;
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    return which === 0 ? [x1, y1, mx, my] : [x2, y2, mx, my];
  }
  function halfCentre(half) {
    const [ax, ay, bx, by] = halfEnds(half);
    return [(ax + bx) / 2, (ay + by) / 2];
  }

  function pathOfHalves(halves) {
    return halves.map((half) => {
      const [ax, ay, bx, by] = halfEnds(half);
      return `M${ax} ${ay}L${bx} ${by}`;
    }).join("");
  }
  function pathOfStroke(stroke) {
    return stroke.map((piece) => {
      if (piece.length === 5) {
        const [ax, ay, bx, by] = halfEnds(piece);
        return `M${ax} ${ay}L${bx} ${by}`;
      }
      return `M${piece[0]} ${piece[1]}L${piece[2]} ${piece[3]}`;
    }).join("");
  }
  function pathOfLines(lines) {
    return lines.map((seg) => `M${seg[0]} ${seg[1]}L${seg[2]} ${seg[3]}`).join("");
  }

  /** Turn a direction as seen on screen into the board's own direction (the board is shown turned). */
  function unrotate([dx, dy], rotation) {
    let x = dx;
    let y = dy;
    for (let turn = 0; turn < ((rotation / 90) % 4 + 4) % 4; turn += 1) [x, y] = [y, -x];
    return [x, y];
  }

  // ------------------------------------------------------------------------------------------------
  // The pen: a position on doubled coordinates, moving half a segment at a time along dotted lines
  // ------------------------------------------------------------------------------------------------

  class Pen {
    constructor(lines) {
      this.lines = new Set(lines.map(keyOf));
      this.points = new Set();
      for (const [x1, y1, x2, y2] of lines) {
        this.points.add(keyOf([x1, y1]));
        this.points.add(keyOf([x2, y2]));
      }
      this.lineList = lines;
    }

    /** Moves from a position {X, Y, seg}: each goes to a neighbouring doubled point and covers one half. */
    moves(pos) {
      const out = [];
      if (pos.seg === null) {
        const x = pos.X / 2;
        const y = pos.Y / 2;
        for (const [dx, dy] of DIRECTIONS) {
          const seg = canonical(x, y, x + dx, y + dy);
          if (!this.lines.has(keyOf(seg))) continue;
          const half = seg[0] === x && seg[1] === y ? 0 : 1;
          out.push({ dir: [dx, dy], next: { X: pos.X + dx, Y: pos.Y + dy, seg }, half: [...seg, half] });
        }
      } else {
        const [x1, y1, x2, y2] = pos.seg;
        out.push({
          dir: [Math.sign(x1 - x2), Math.sign(y1 - y2)],
          next: { X: 2 * x1, Y: 2 * y1, seg: null },
          half: [...pos.seg, 0],
        });
        out.push({
          dir: [Math.sign(x2 - x1), Math.sign(y2 - y1)],
          next: { X: 2 * x2, Y: 2 * y2, seg: null },
          half: [...pos.seg, 1],
        });
      }
      return out;
    }

    /** The nearest dot or half-way point on a dotted line to (x, y), within START_RADIUS. */
    nearest(x, y) {
      let best = null;
      let bestDistance = START_RADIUS;
      const consider = (X, Y, seg) => {
        const distance = Math.hypot(X / 2 - x, Y / 2 - y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = { X, Y, seg };
        }
      };
      for (const seg of this.lineList) {
        consider(2 * seg[0], 2 * seg[1], null);
        consider(2 * seg[2], 2 * seg[3], null);
        consider(seg[0] + seg[2], seg[1] + seg[3], seg);
      }
      return best;
    }

    /** Walk greedily towards (x, y) while a move brings the pen nearer; returns the halves covered. */
    follow(pos, x, y) {
      const covered = [];
      let current = pos;
      for (let step = 0; step < 48; step += 1) {
        const here = Math.hypot(current.X / 2 - x, current.Y / 2 - y);
        let best = null;
        let bestDistance = here - 0.05;
        for (const move of this.moves(current)) {
          const distance = Math.hypot(move.next.X / 2 - x, move.next.Y / 2 - y);
          if (distance < bestDistance) {
            bestDistance = distance;
            best = move;
          }
        }
        if (!best) break;
        current = best.next;
        covered.push(best.half);
      }
      return { pos: current, covered };
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Board pictures (the same picture on every screen, from the snapped strokes)
  // ------------------------------------------------------------------------------------------------

  function boardSvg({ lines, strokes, rotation, label, className, hidden }) {
    const svg = s("svg", {
      viewBox: "-0.7 -0.7 12.4 12.4",
      class: `ml-board-svg ${className || ""}`,
      role: "img",
      "aria-label": label,
      focusable: "false",
    });
    const group = s("g", { transform: `rotate(${rotation || 0} 5.5 5.5)`, class: "ml-turn" });
    group.append(s("rect", { x: -0.5, y: -0.5, width: 12, height: 12, rx: 0.3, class: "ml-paper" }));
    group.append(s("path", { d: DOTS, class: "ml-dots", "aria-hidden": "true" }));
    if (lines) group.append(s("path", { d: pathOfLines(lines), class: "ml-lines" }));
    const ink = s("g", { class: "ml-ink" });
    if (hidden) {
      ink.append(s("path", { d: "M1 1L10 10M10 1L1 10", class: "ml-hidden-cross" }));
    }
    for (const stroke of strokes || []) ink.append(s("path", { d: pathOfStroke(stroke), class: "ml-stroke" }));
    group.append(ink);
    svg.append(group);
    // the bottom edge: the board is shown turned as its drawer chose, so the bottom is always down here
    svg.append(s("path", { d: "M-0.45 11.62H11.45", class: "ml-bottom", "aria-hidden": "true" }));
    return svg;
  }

  // every lattice dot as a zero-length round-capped line: one path instead of 144 circles per board
  const DOTS = Array.from({ length: GRID * GRID }, (_v, i) => `M${i % GRID} ${Math.floor(i / GRID)}h0`).join("");

  function sideName(side) {
    return side === 0 ? gettext("side A") : gettext("side B");
  }

  // ------------------------------------------------------------------------------------------------
  // Per-table memory across re-renders
  // ------------------------------------------------------------------------------------------------

  const memory = new Map();

  function memoryFor(table) {
    if (!memory.has(table.table)) {
      memory.set(table.table, {
        tool: "pen",
        pending: [], // strokes sent and not yet in the view: [{halves, seq}]
        selectedCard: null,
        confirmDone: false,
        confirmClear: false,
        cursor: { X: 10, Y: 10, seg: null },
        penDown: null, // keyboard stroke in progress: {pos, halves: Set}
        drag: null, // pointer stroke in progress
        deferred: null,
        announced: "",
        logSeen: null,
        lastSeq: 0,
        message: "",
        hideConcept: false,
        roundKey: "",
      });
    }
    return memory.get(table.table);
  }

  // ------------------------------------------------------------------------------------------------
  // Names and text
  // ------------------------------------------------------------------------------------------------

  /** A player's name; the viewer is "You" on a label of its own (a figure's caption, the list of
   *  players). A sentence about the viewer has its own wording ("You excluded …", "drawn by you"), never
   *  the viewer's "You" put into a sentence written for somebody else ("Tú excluyó"). */
  function nameOf(view, id, me) {
    if (id && me && id === me) return gettext("You");
    const player = (view.players || []).find((p) => p.id === id);
    return player ? player.name : id || "";
  }

  // The shipped decks' themes, named in the device's language (the deck holds English keys; a word list's
  // own theme is shown as its teacher wrote it). The same names as games/definitions/mindlines/pages.py.
  const THEME_NAMES = () => ({
    actions: pgettext("Mind the Lines theme", "actions"),
    animals: pgettext("Mind the Lines theme", "animals"),
    body: pgettext("Mind the Lines theme", "body"),
    clothes: pgettext("Mind the Lines theme", "clothes"),
    food: pgettext("Mind the Lines theme", "food"),
    home: pgettext("Mind the Lines theme", "home"),
    jobs: pgettext("Mind the Lines theme", "jobs"),
    music: pgettext("Mind the Lines theme", "music"),
    nature: pgettext("Mind the Lines theme", "nature"),
    places: pgettext("Mind the Lines theme", "places"),
    school: pgettext("Mind the Lines theme", "school"),
    science: pgettext("Mind the Lines theme", "science"),
    sport: pgettext("Mind the Lines theme", "sport"),
    transport: pgettext("Mind the Lines theme", "transport"),
    weather: pgettext("Mind the Lines theme", "weather"),
  });

  function themeName(theme) {
    return Object.prototype.hasOwnProperty.call(THEME_NAMES(), theme) ? THEME_NAMES()[theme] : theme;
  }

  function phaseTitle(view) {
    return {
      looking: gettext("Read your concept"),
      scribbling: gettext("Scribbling"),
      prophesying: gettext("Prophesying"),
      reveal: gettext("The reveal"),
      over: gettext("Game over"),
    }[view.phase] || view.phase;
  }

  function errorsText(view) {
    return interpolate(gettext("Error points: %(errors)s (the group may have %(limit)s)"), {
      errors: view.errors,
      limit: view.error_limit,
    });
  }

  function conceptTexts(view) {
    const reveal = view.history && view.history.length ? view.history[view.history.length - 1] : null;
    const byId = new Map();
    if (reveal) for (const card of reveal.cards) byId.set(card.id, card.text);
    return { reveal, byId };
  }

  // ------------------------------------------------------------------------------------------------
  // Shared parts
  // ------------------------------------------------------------------------------------------------

  function header(view, table, ctx, large, ui) {
    // One timer node per table, kept across re-renders: a countdown's interval belongs to its node, so a
    // fresh node on every change would leave the old intervals ticking.
    if (!ui.timer) ui.timer = h("span", { class: "ml-timer countdown" });
    const timer = ui.timer;
    const showTimer = !ctx.compact && table.status === "playing" && view.phase !== "over";
    const deadline = showTimer && view.clock && view.clock.deadline ? view.clock.deadline : null;
    if (ctx.countdown) ctx.countdown(timer, deadline);
    else timer.textContent = "";
    const roundText = interpolate(gettext("Round %(round)s of %(rounds)s"), {
      round: Math.min(view.round, view.rounds),
      rounds: view.rounds,
    });
    return h(
      "div",
      { class: `ml-header${large ? " ml-large" : ""}` },
      h("span", { class: "ml-phase" }, table.status === "ended" && view.phase !== "over" ? gettext("Game ended") : phaseTitle(view)),
      h("span", { class: "ml-round" }, roundText),
      h("span", { class: "ml-errors" }, errorsText(view)),
      timer,
    );
  }

  function drawingLabel(view, entry, me, conceptText) {
    const mine = Boolean(me && entry.player === me);
    const who = nameOf(view, entry.player, null);
    if (entry.hidden && entry.strokes === null) {
      return mine
        ? gettext("Your drawing, hidden by the teacher")
        : interpolate(gettext("Drawing by %(name)s, hidden by the teacher"), { name: who });
    }
    if (!entry.shown) {
      return mine ? gettext("You are still drawing") : interpolate(gettext("%(name)s is still drawing"), { name: who });
    }
    const count = (entry.strokes || []).length;
    let text = mine
      ? interpolate(ngettext("Your drawing: %(count)s stroke", "Your drawing: %(count)s strokes", count), { count })
      : interpolate(
        ngettext("Drawing by %(name)s: %(count)s stroke", "Drawing by %(name)s: %(count)s strokes", count),
        { name: who, count },
      );
    if (conceptText) text += ` (${conceptText})`;
    return text;
  }

  function gallery(view, ctx, { me, teacherDrawings, labels, large, controls }) {
    const items = view.players.map((player) => {
      const shown = view.gallery.find((entry) => entry.player === player.id) || { player: player.id };
      let entry = teacherDrawings ? teacherDrawings[player.id] || shown : shown;
      if (me && player.id === me && view.me && entry.shown && entry.strokes === null) {
        entry = { ...entry, strokes: view.me.drawing.strokes }; // its author still sees a hidden drawing
      }
      const concept = labels ? labels.get(player.id) : null;
      const figure = h("figure", {
        class: `ml-drawing${entry.shown ? "" : " ml-unfinished"}${entry.hidden ? " ml-is-hidden" : ""}`,
        "data-player": player.id,
      });
      const label = drawingLabel(view, entry, me, concept);
      if (entry.lines && (entry.shown || teacherDrawings)) {
        figure.append(
          boardSvg({
            lines: entry.lines,
            strokes: entry.strokes || [],
            rotation: entry.rotation,
            label,
            hidden: entry.hidden && !entry.strokes,
          }),
        );
      } else {
        figure.append(
          h("div", { class: "ml-placeholder", role: "img", "aria-label": label },
            h("span", { "aria-hidden": "true" }, entry.hidden ? "⊘" : "✎")),
        );
      }
      const caption = h("figcaption", {},
        h("strong", {}, h("bdi", {}, nameOf(view, player.id, me))),
        player.bot ? h("span", { class: "badge" }, gettext("computer")) : null,
        entry.hidden ? h("span", { class: "badge bad" }, gettext("hidden")) : null,
        !entry.shown ? h("span", { class: "badge" }, gettext("drawing…")) : null,
        concept ? h("span", { class: "ml-concept-tag" }, concept) : null,
      );
      figure.append(caption);
      if (controls && controls.hide && ["scribbling", "prophesying"].includes(view.phase)) {
        const hidden = entry.hidden;
        figure.append(
          button(
            hidden ? gettext("Show again") : gettext("Hide drawing"),
            () => controls.hide(player.id, hidden),
            {
              class: `secondary ml-small${hidden ? "" : " danger"}`,
              "data-focus": `hide-${player.id}`,
              "aria-label": interpolate(
                hidden ? gettext("Show again the drawing by %(name)s") : gettext("Hide drawing by %(name)s"),
                { name: player.name },
              ),
            },
          ),
        );
      }
      return figure;
    });
    return h("div", { class: `ml-gallery${large ? " ml-large" : ""}` }, items);
  }

  /** A card's word: a long single word is set a little smaller, so that it wraps between words (or not at
   *  all), never letter by letter, on a narrow card. */
  function cardText(text) {
    const longest = Math.max(0, ...String(text).split(/\s+/).map((word) => word.length));
    const size = longest >= 13 ? "ml-longer" : longest >= 10 ? "ml-long" : "";
    return h("span", { class: "ml-card-text" }, size ? h("span", { class: size }, text) : text);
  }

  function drawnByText(view, player, me) {
    return me && player === me ? gettext("drawn by you") : interpolate(gettext("drawn by %(name)s"), { name: nameOf(view, player, null) });
  }

  function excludedByText(view, player, me) {
    return me && player === me ? gettext("excluded by you") : interpolate(gettext("excluded by %(name)s"), { name: nameOf(view, player, null) });
  }

  /** The exclusion just made, as the announcement says it. */
  function exclusionText(view, event, me) {
    return me && event.player === me
      ? interpolate(gettext("You excluded “%(text)s”."), { text: event.text })
      : interpolate(gettext("%(name)s excluded “%(text)s”."), { name: nameOf(view, event.player, null), text: event.text });
  }

  function revealCards(view, reveal, me, large) {
    return h(
      "ul",
      { class: `ml-cards ml-revealed${large ? " ml-large" : ""}` },
      reveal.cards.map((card) => {
        const left = card.excluded_by === null;
        const error = card.decoy && left;
        const classes = ["ml-card", card.decoy ? "ml-decoy" : "ml-drawn", left ? "ml-left" : "ml-out"];
        if (error) classes.push("ml-error");
        const lines = [card.decoy ? gettext("decoy: nobody drew it") : drawnByText(view, card.drawn_by, me)];
        if (!left) lines.push(excludedByText(view, card.excluded_by, me));
        let verdict;
        if (error) verdict = gettext("✗ error point");
        else if (!card.decoy && left) verdict = gettext("✓ recognised");
        else if (card.decoy) verdict = gettext("✓ decoy excluded");
        else verdict = gettext("✗ drawn, but excluded");
        return h(
          "li",
          { class: classes.join(" "), "data-card": card.card },
          cardText(card.text),
          h("span", { class: "ml-card-note" }, lines.join(" · ")),
          h("strong", { class: "ml-verdict" }, verdict),
        );
      }),
    );
  }

  function roundSummary(view, reveal) {
    return h(
      "p",
      { class: "ml-round-result" },
      interpolate(
        ngettext(
          "Round %(round)s: %(count)s error point.",
          "Round %(round)s: %(count)s error points.",
          reveal.errors,
        ),
        { round: reveal.round, count: reveal.errors },
      ),
      " ",
      interpolate(gettext("So far: %(errors)s (the group may have %(limit)s)."), {
        errors: view.errors,
        limit: view.error_limit,
      }),
    );
  }

  function drawnLabels(view, reveal) {
    const labels = new Map();
    if (!reveal) return labels;
    const text = new Map(reveal.cards.map((card) => [card.id, card.text]));
    for (const [player, ids] of Object.entries(reveal.hands || {})) {
      labels.set(player, ids.map((id) => text.get(id)).join(" + "));
    }
    return labels;
  }

  function resultPanel(view, me, large) {
    const result = view.result;
    if (!result) return null;
    const headline = result.won
      ? gettext("The group wins!")
      : result.ended_early
        ? gettext("Too many error points: the game is lost.")
        : gettext("The game is lost.");
    const rows = (view.history || []).map((round) =>
      h("tr", {}, h("td", {}, String(round.round)), h("td", {}, String(round.errors)), h("td", {}, String(round.total_errors))),
    );
    const scores = view.players.map((player) =>
      h("li", {}, interpolate(
        ngettext(
          "%(name)s: %(count)s concept recognised",
          "%(name)s: %(count)s concepts recognised",
          result.scores[player.id] || 0,
        ),
        { name: nameOf(view, player.id, me), count: result.scores[player.id] || 0 },
      )),
    );
    return h(
      "section",
      { class: `ml-result ${result.won ? "ml-won" : "ml-lost"}${large ? " ml-large" : ""}` },
      h("h3", {}, h("span", { "aria-hidden": "true" }, result.won ? "★ " : "✗ "), headline),
      h("p", {}, interpolate(
        ngettext(
          "%(errors)s error point; the group could have %(limit)s. Rounds played: %(rounds)s.",
          "%(errors)s error points; the group could have %(limit)s. Rounds played: %(rounds)s.",
          result.errors,
        ),
        { errors: result.errors, limit: result.error_limit, rounds: result.rounds_played },
      )),
      h("div", { class: "ml-result-body" }, h("table", { class: "ml-rounds" },
        h("caption", { class: "visually-hidden" }, gettext("Error points per round")),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, gettext("Round")),
          h("th", { scope: "col" }, gettext("Error points")),
          h("th", { scope: "col" }, gettext("Total")),
        )),
        h("tbody", {}, rows),
      ),
      h("ul", { class: "ml-scores", "aria-label": gettext("Concepts each player drew that the group recognised") }, scores)),
    );
  }

  function playerStatus(view, me) {
    const waiting = new Set(view.waiting_for || []);
    return h(
      "ul",
      { class: "ml-players", "aria-label": gettext("Players") },
      view.players.map((player) => {
        let status = "";
        if (view.phase === "looking") status = waiting.has(player.id) ? gettext("reading") : gettext("ready");
        else if (view.phase === "scribbling") status = waiting.has(player.id) ? gettext("drawing") : gettext("done");
        else if (view.phase === "prophesying") status = view.turn === player.id ? gettext("excluding now") : "";
        else if (view.phase === "reveal") status = waiting.has(player.id) ? gettext("looking") : gettext("ready");
        const busy = waiting.has(player.id) && view.phase !== "over";
        return h(
          "li",
          { class: busy ? "ml-busy" : "ml-idle", "data-player": player.id },
          h("span", { "aria-hidden": "true" }, busy ? "… " : "✓ "),
          h("bdi", {}, nameOf(view, player.id, me)),
          player.bot ? ` (${gettext("computer")})` : "",
          status ? h("span", { class: "ml-status" }, ` · ${status}`) : null,
        );
      }),
    );
  }

  function prophecyCards(view, me, { onPick, selected, mine, large }) {
    const prophecy = view.prophecy;
    const openCount = prophecy.cards.filter((card) => card.excluded_by === null).length;
    return h(
      "ul",
      { class: `ml-cards${large ? " ml-large" : ""}`, "aria-label": interpolate(
        gettext("Concepts on the table: %(open)s of %(total)s still in"),
        { open: openCount, total: prophecy.cards.length },
      ) },
      prophecy.cards.map((card) => {
        const out = card.excluded_by !== null;
        const own = mine && mine.includes(card.card);
        const classes = ["ml-card"];
        if (out) classes.push("ml-out");
        if (own) classes.push("ml-own");
        if (selected === card.card) classes.push("ml-selected");
        const note = out
          ? excludedByText(view, card.excluded_by, me)
          : own
            ? gettext("your concept")
            : "";
        const inner = [
          cardText(card.text),
          note ? h("span", { class: "ml-card-note" }, note) : null,
        ];
        if (onPick && !out && !own) {
          return h("li", { class: classes.join(" ") }, button(inner, () => onPick(card.card), {
            class: "ml-card-button",
            "aria-pressed": selected === card.card ? "true" : "false",
            "data-focus": `card-${card.card}`,
            "data-card": card.card,
          }));
        }
        return h("li", { class: classes.join(" "), "data-card": card.card }, inner);
      }),
    );
  }

  // ------------------------------------------------------------------------------------------------
  // The student's device
  // ------------------------------------------------------------------------------------------------

  function send(ui, ctx, action, { onDone } = {}) {
    return ctx.act(action).then(
      (ack) => {
        if (onDone) onDone(ack);
        return ack;
      },
      (error) => {
        const message = (error && error.message) || gettext("That did not work. Try again.");
        ui.message = message;
        ctx.announce(message);
        if (ui.rerender) ui.rerender();
        throw error;
      },
    );
  }

  function sendStroke(ui, ctx, halfKeys) {
    const pieces = piecesOf(halfKeys);
    if (!pieces.length) return;
    ui.message = "";
    for (const part of chunks(pieces, MAX_PIECES)) sendPieces(ui, ctx, part);
    if (ui.rerender) ui.rerender();
  }

  /** One stroke action. Until it is acknowledged it is drawn pale and kept in the device's draft, so a
   *  reload or a dropped connection does not lose it (see restoreUnsent). */
  function sendPieces(ui, ctx, part) {
    const pending = { pieces: part, halves: halvesOfStroke(part), seq: null };
    ui.pending.push(pending);
    saveUnsent(ui, ctx);
    ctx.act({ type: "stroke", segments: part }).then(
      (ack) => {
        pending.seq = ack.seq;
        saveUnsent(ui, ctx);
        if (ui.lastSeq >= ack.seq) dropPending(ui, pending);
      },
      (error) => {
        dropPending(ui, pending);
        saveUnsent(ui, ctx);
        ui.message = (error && error.message) || gettext("That line could not be drawn.");
        ctx.announce(ui.message);
        if (ui.rerender) ui.rerender();
      },
    );
  }

  function saveUnsent(ui, ctx) {
    if (!ctx.saveDraft || !ui.unsentKey) return;
    const unsent = ui.pending.filter((pending) => pending.seq === null).map((pending) => pending.pieces);
    ctx.saveDraft(ui.unsentKey, unsent.length ? JSON.stringify(unsent) : "");
  }

  /** After a reload: strokes this device drew but never saw acknowledged are sent again, unless the
   *  board already has them (the server got them and only the acknowledgement was lost). */
  function restoreUnsent(ui, ctx, drawing) {
    if (!ctx.draft || !ui.unsentKey) return;
    let unsent = [];
    try {
      unsent = JSON.parse(ctx.draft(ui.unsentKey) || "[]");
    } catch (_error) {
      unsent = [];
    }
    if (!Array.isArray(unsent) || !unsent.length) return;
    const sameInk = (a, b) => a.length === b.length && a.every((key) => b.includes(key));
    const onBoard = drawing.strokes.map((stroke) => halvesOfStroke(stroke).map(keyOf));
    for (const pieces of unsent) {
      if (!Array.isArray(pieces) || !pieces.length) continue;
      const halves = halvesOfStroke(pieces).map(keyOf);
      if (!onBoard.some((keys) => sameInk(keys, halves))) sendPieces(ui, ctx, pieces);
    }
    saveUnsent(ui, ctx);
  }

  function dropPending(ui, pending) {
    const index = ui.pending.indexOf(pending);
    if (index >= 0) {
      ui.pending.splice(index, 1);
      if (ui.refreshInk) ui.refreshInk();
    }
  }

  function sendErase(ui, ctx, halfKeys) {
    const pieces = piecesOf(halfKeys);
    if (!pieces.length) return;
    for (const part of chunks(pieces, MAX_PIECES)) send(ui, ctx, { type: "erase", segments: part }).catch(() => {});
  }

  /** The drawing board with pointer and keyboard input; lives across re-renders of the same table. */
  function drawingBoard(view, ui, ctx, drawing, editable) {
    const lines = drawing.sides[drawing.side];
    const pen = new Pen(lines);
    const rotation = drawing.rotation;
    const count = drawing.strokes.length;
    const label = editable
      ? interpolate(
        ngettext(
          "Your scribble board, %(side)s, %(count)s stroke. Draw with a finger, pen or mouse on the dotted lines, or use the arrow keys.",
          "Your scribble board, %(side)s, %(count)s strokes. Draw with a finger, pen or mouse on the dotted lines, or use the arrow keys.",
          count,
        ),
        { side: sideName(drawing.side), count },
      )
      : interpolate(
        ngettext("Your scribble board, %(side)s, %(count)s stroke.", "Your scribble board, %(side)s, %(count)s strokes.", count),
        { side: sideName(drawing.side), count },
      );
    const svg = boardSvg({ lines, strokes: drawing.strokes, rotation, label, className: "ml-main-board" });
    const group = svg.querySelector(".ml-turn");
    const ink = svg.querySelector(".ml-ink");
    const pendingPath = s("path", { class: "ml-stroke ml-pending" });
    const livePath = s("path", { class: "ml-stroke ml-live" });
    const rubPath = s("path", { class: "ml-rub" });
    const cursor = s("circle", { r: 0.28, class: "ml-cursor" });
    ink.append(pendingPath, livePath, rubPath);
    group.append(cursor);

    const drawnHalves = () => drawing.strokes.map((stroke) => halvesOfStroke(stroke));
    ui.refreshInk = () => {
      pendingPath.setAttribute("d", pathOfHalves(ui.pending.flatMap((p) => p.halves)));
    };
    ui.refreshInk();
    const showCursor = () => {
      const pos = ui.penDown ? ui.penDown.pos : ui.cursor;
      cursor.setAttribute("cx", pos.X / 2);
      cursor.setAttribute("cy", pos.Y / 2);
      cursor.classList.toggle("ml-cursor-down", Boolean(ui.penDown));
      livePath.setAttribute("d", ui.penDown ? pathOfHalves([...ui.penDown.halves].map(parseKey)) : "");
    };
    showCursor();
    if (!editable) {
      cursor.remove();
      return svg;
    }
    svg.classList.add(ui.tool === "eraser" ? "ml-erasing" : "ml-drawing-pen");
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "application");
    svg.setAttribute("aria-roledescription", gettext("drawing board"));
    svg.setAttribute("data-focus", "board");
    svg.setAttribute(
      "aria-keyshortcuts",
      "ArrowUp ArrowDown ArrowLeft ArrowRight Home End PageUp PageDown Space Enter Escape U P X",
    );

    const toBoard = (event) => {
      const matrix = group.getScreenCTM();
      if (!matrix) return null;
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      const local = point.matrixTransform(matrix.inverse());
      return [local.x, local.y];
    };

    // ---- pointer (mouse, touch, pen) ----
    svg.addEventListener("pointerdown", (event) => {
      if (event.button !== undefined && event.button > 0) return;
      if (ui.drag) {
        // a second finger (or a palm resting on the tablet) while one draws: it neither draws nor ends
        // the stroke, and it does not scroll or zoom the page either
        event.preventDefault();
        return;
      }
      const at = toBoard(event);
      if (!at) return;
      event.preventDefault();
      svg.focus({ preventScroll: true });
      ui.message = "";
      if (ui.tool === "eraser") {
        ui.drag = { kind: "rub", from: at, start: at, travel: 0, rubbed: new Set(), strokes: drawnHalves(), pointer: event.pointerId };
        rubAt(ui.drag, at);
      } else {
        const start = pen.nearest(at[0], at[1]);
        if (!start) {
          ui.message = gettext("Start on a dotted line: you can only draw on the lines.");
          if (ui.showMessage) ui.showMessage();
          return;
        }
        ui.drag = { kind: "draw", pos: start, halves: new Set(), pointer: event.pointerId };
        livePath.setAttribute("d", "");
      }
      try {
        svg.setPointerCapture(event.pointerId);
      } catch (_error) {
        /* a synthetic pointer has nothing to capture */
      }
    });
    const ours = (event) => ui.drag && ui.drag.pointer === event.pointerId;
    const moveTo = (event) => {
      const drag = ui.drag;
      if (!drag) return;
      const events = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
      for (const each of events.length ? events : [event]) {
        const at = toBoard(each);
        if (!at) continue;
        if (drag.kind === "draw") {
          const walked = pen.follow(drag.pos, at[0], at[1]);
          drag.pos = walked.pos;
          for (const half of walked.covered) drag.halves.add(keyOf(half));
        } else {
          rubAlong(drag, at);
        }
      }
      if (drag.kind === "draw") livePath.setAttribute("d", pathOfHalves([...drag.halves].map(parseKey)));
      else rubPath.setAttribute("d", pathOfHalves([...drag.rubbed].map(parseKey)));
    };
    svg.addEventListener("pointermove", (event) => {
      if (ui.drag) event.preventDefault();
      if (ours(event)) moveTo(event);
    });
    const finish = (event, cancelled) => {
      const drag = ui.drag;
      if (!drag || !ours(event)) return;
      if (!cancelled) moveTo(event);
      ui.drag = null;
      livePath.setAttribute("d", "");
      rubPath.setAttribute("d", "");
      if (!cancelled) {
        if (drag.kind === "draw") {
          if (drag.halves.size) sendStroke(ui, ctx, drag.halves);
        } else if (drag.travel < TAP_TRAVEL) {
          const index = strokeNear(drag.strokes, drag.start);
          if (index !== null) send(ui, ctx, { type: "erase", stroke: index }).catch(() => {});
        } else if (drag.rubbed.size) {
          sendErase(ui, ctx, drag.rubbed);
        }
      }
      flushDeferred(ui);
    };
    svg.addEventListener("pointerup", (event) => finish(event, false));
    svg.addEventListener("pointercancel", (event) => finish(event, true));

    // ---- keyboard ----
    svg.addEventListener("keydown", (event) => {
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if ((key === "z" && (event.ctrlKey || event.metaKey)) || key === "u") {
        event.preventDefault();
        if (drawing.can_undo) send(ui, ctx, { type: "undo" }).catch(() => {});
        return;
      }
      if (key === "p" || key === "x") {
        event.preventDefault();
        ui.tool = key === "p" ? "pen" : "eraser";
        ui.penDown = null;
        ctx.announce(ui.tool === "pen" ? gettext("Pen") : gettext("Eraser"));
        if (ui.rerender) ui.rerender();
        return;
      }
      if (KEY_DIRECTIONS[key] && !(key.length === 1 && (event.ctrlKey || event.metaKey || event.altKey))) {
        event.preventDefault();
        const [dx, dy] = unrotate(KEY_DIRECTIONS[key], rotation);
        if (ui.penDown) {
          const move = pen.moves(ui.penDown.pos).find((m) => m.dir[0] === dx && m.dir[1] === dy);
          if (!move) {
            ctx.announce(gettext("No dotted line that way."));
            return;
          }
          ui.penDown.pos = move.next;
          ui.penDown.halves.add(keyOf(move.half));
        } else {
          const base = ui.cursor.seg === null ? ui.cursor : { X: 2 * Math.round(ui.cursor.X / 2), Y: 2 * Math.round(ui.cursor.Y / 2) };
          const X = Math.min(2 * (GRID - 1), Math.max(0, base.X + 2 * dx));
          const Y = Math.min(2 * (GRID - 1), Math.max(0, base.Y + 2 * dy));
          ui.cursor = { X, Y, seg: null };
          const touching = pen.points.has(keyOf([X / 2, Y / 2]));
          ctx.announce(touching ? gettext("On a dotted line") : gettext("Not on a line"));
        }
        showCursor();
        return;
      }
      if (key === " " || key === "Enter") {
        event.preventDefault();
        if (ui.tool === "eraser") {
          const rub = { rubbed: new Set(), strokes: drawnHalves(), travel: 0, from: null };
          rubAt(rub, [ui.cursor.X / 2, ui.cursor.Y / 2], KEYBOARD_ERASE_RADIUS);
          if (rub.rubbed.size) sendErase(ui, ctx, rub.rubbed);
          else ctx.announce(gettext("There is nothing to erase there."));
          return;
        }
        if (ui.penDown) {
          const halves = ui.penDown.halves;
          ui.cursor = ui.penDown.pos;
          ui.penDown = null;
          showCursor();
          if (halves.size) sendStroke(ui, ctx, halves);
          ctx.announce(gettext("Pen up"));
        } else if (pen.points.has(keyOf([ui.cursor.X / 2, ui.cursor.Y / 2])) && ui.cursor.seg === null) {
          ui.penDown = { pos: { ...ui.cursor }, halves: new Set() };
          showCursor();
          ctx.announce(gettext("Pen down: use the arrow keys to draw along the lines."));
        } else {
          ctx.announce(gettext("Move to a dot on a dotted line first."));
        }
        return;
      }
      if (key === "Escape" && ui.penDown) {
        event.preventDefault();
        ui.penDown = null;
        showCursor();
        ctx.announce(gettext("Stroke dropped"));
      }
    });
    return svg;
  }

  function strokeNear(strokes, [x, y]) {
    let best = null;
    let bestDistance = 0.45;
    strokes.forEach((halves, index) => {
      for (const half of halves) {
        const [cx, cy] = halfCentre(half);
        const distance = Math.hypot(cx - x, cy - y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = index;
        }
      }
    });
    return best;
  }

  function rubAt(drag, [x, y], radius = ERASE_RADIUS) {
    for (const halves of drag.strokes) {
      for (const half of halves) {
        const [cx, cy] = halfCentre(half);
        if (Math.hypot(cx - x, cy - y) <= radius) drag.rubbed.add(keyOf(half));
      }
    }
  }

  function rubAlong(drag, to) {
    const from = drag.from || to;
    const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const steps = Math.max(1, Math.ceil(length / 0.1));
    for (let i = 1; i <= steps; i += 1) {
      rubAt(drag, [from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps]);
    }
    drag.travel += length;
    drag.from = to;
  }

  function flushDeferred(ui) {
    if (ui.deferred) {
      const args = ui.deferred;
      ui.deferred = null;
      render(...args);
    }
  }

  function conceptCard(view, me, ui, ctx, compact, live) {
    const concepts = me.concepts || [];
    const title = concepts.length > 1 ? gettext("Your two secret concepts") : gettext("Your secret concept");
    const hidden = ui.hideConcept && view.phase === "scribbling";
    return h(
      "section",
      { class: `ml-secret${compact ? " ml-compact-secret" : ""}`, "aria-label": title },
      h("div", { class: "ml-secret-head" },
        h("h3", {}, title),
        view.phase === "scribbling" && live
          ? button(hidden ? gettext("Show my concept") : gettext("Hide my concept"), () => {
            ui.hideConcept = !ui.hideConcept;
            ui.rerender();
          }, { class: "secondary ml-small", "data-focus": "toggle-concept" })
          : null),
      hidden
        ? h("p", { class: "ml-secret-hidden" }, gettext("Hidden from people walking past."))
        : h("ul", { class: "ml-secret-list" }, concepts.map((concept) =>
          h("li", {},
            h("span", { class: "ml-secret-text" }, concept.text),
            concept.theme ? h("span", { class: "ml-theme" }, themeName(concept.theme)) : null),
        )),
      concepts.length > 1 && !hidden
        ? h("p", { class: "ml-hint" }, gettext("Draw both on the same board. Don't show which lines are which!"))
        : null,
    );
  }

  function boardControls(view, me, ui, ctx, drawing) {
    const empty = drawing.strokes.length === 0 && !ui.pending.length;
    const rotateBy = (turn) => {
      const rotation = (((drawing.rotation + turn) % 360) + 360) % 360;
      send(ui, ctx, { type: "rotate", rotation }).then(() => ctx.announce(interpolate(
        gettext("Board turned: %(degrees)s degrees"), { degrees: rotation },
      ))).catch(() => {});
    };
    return h(
      "div",
      { class: "ml-board-controls", role: "group", "aria-label": gettext("Board side and bottom edge") },
      button(
        drawing.side === 0 ? gettext("Use side B") : gettext("Use side A"),
        () => send(ui, ctx, { type: "side", side: 1 - drawing.side }).catch(() => {}),
        {
          class: "secondary",
          disabled: !empty,
          "data-focus": "side",
          title: empty ? null : gettext("Clear the board to change side"),
        },
      ),
      button(h("span", {}, h("span", { "aria-hidden": "true" }, "↺ "), gettext("Turn left")), () => rotateBy(-90), {
        class: "secondary",
        "data-focus": "turn-left",
      }),
      button(h("span", {}, h("span", { "aria-hidden": "true" }, "↻ "), gettext("Turn right")), () => rotateBy(90), {
        class: "secondary",
        "data-focus": "turn-right",
      }),
      h("span", { class: "ml-hint" }, interpolate(gettext("Now on %(side)s. The thick edge is the bottom."), {
        side: sideName(drawing.side),
      })),
      empty ? null : h("span", { class: "ml-hint" }, gettext("To change side, clear the board first.")),
    );
  }

  function drawingTools(view, table, me, ui, ctx, drawing) {
    const halves = drawing.strokes.reduce((sum, stroke) => sum + halvesOfStroke(stroke).length, 0);
    const tool = (name, label, icon) =>
      button(h("span", {}, h("span", { "aria-hidden": "true" }, `${icon} `), label), () => {
        ui.tool = name;
        if (ctx.saveDraft) ctx.saveDraft(`mindlines:tool:${table.table}:${view.round}`, name);
        ui.rerender();
      }, { class: ui.tool === name ? "ml-tool ml-on" : "ml-tool secondary", "aria-pressed": ui.tool === name ? "true" : "false", "data-focus": `tool-${name}` });
    const clear = ui.confirmClear
      ? h("span", { class: "ml-confirm-inline" },
        button(gettext("Yes, clear it all"), () => {
          ui.confirmClear = false;
          send(ui, ctx, { type: "clear" }).catch(() => {});
        }, { class: "danger", "data-focus": "clear-yes" }),
        button(gettext("No"), () => {
          ui.confirmClear = false;
          ui.rerender();
        }, { class: "secondary", "data-focus": "clear-no" }))
      : button(gettext("Clear board"), () => {
        ui.confirmClear = true;
        ui.rerender();
      }, { class: "secondary", disabled: drawing.strokes.length === 0, "data-focus": "clear" });
    return h(
      "div",
      { class: "ml-tools" },
      h("div", { class: "ml-toolrow", role: "group", "aria-label": gettext("Tools") },
        tool("pen", gettext("Pen"), "✎"),
        tool("eraser", gettext("Eraser"), "⌫"),
        button(h("span", {}, h("span", { "aria-hidden": "true" }, "↶ "), gettext("Undo")),
          () => send(ui, ctx, { type: "undo" }).catch(() => {}),
          { class: "secondary", disabled: !drawing.can_undo, "data-focus": "undo" }),
        clear),
      h("p", { class: "ml-hint" }, ui.tool === "eraser"
        ? gettext("Eraser: rub over lines to erase them, or tap a line to erase its whole stroke.")
        : gettext("Pen: draw along the dotted lines. You can stop half-way along a line.")),
      h("p", { class: "ml-ink-meter" }, interpolate(
        gettext("Strokes: %(strokes)s of %(max_strokes)s · ink: %(ink)s of %(max_ink)s"),
        { strokes: drawing.strokes.length, max_strokes: MAX_STROKES, ink: halves, max_ink: MAX_HALVES },
      )),
    );
  }

  /** Done (confirmed: a shown drawing is final). */
  function doneControl(ui, ctx) {
    return ui.confirmDone
      ? h("div", { class: "ml-confirm", role: "group", "aria-label": gettext("Show your drawing?") },
        h("p", {}, gettext("Show your drawing now? You can't change it after this.")),
        button(gettext("Yes, show it"), () => {
          ui.confirmDone = false;
          send(ui, ctx, { type: "done" }).then(() => ctx.announce(gettext("Your drawing is shown."))).catch(() => {});
        }, { class: "big", "data-focus": "done-yes" }),
        button(gettext("Keep drawing"), () => {
          ui.confirmDone = false;
          ui.rerender();
        }, { class: "secondary", "data-focus": "done-no" }))
      : button(gettext("Done: show my drawing"), () => {
        ui.confirmDone = true;
        ui.rerender();
      }, { class: "big ml-done", "data-focus": "done" });
  }

  function messageLine(ui) {
    const line = h("p", { class: "ml-message", role: "status" }, ui.message || "");
    ui.showMessage = () => {
      line.textContent = ui.message || "";
    };
    return line;
  }

  function playerScreen(view, table, ui, ctx) {
    const me = view.me;
    const drawing = me.drawing;
    const live = table.status === "playing";
    const parts = [];
    if (table.status === "ended" && view.phase !== "over") {
      // the teacher ended the game: no board to draw on, no card to pick, no button; the standing instead
      return [
        header(view, table, ctx, false, ui),
        endedPanel(view, me.player, false),
        h("h3", {}, gettext("The group's drawings")),
        gallery(view, ctx, { me: me.player }),
      ];
    }
    if (view.phase === "looking" || (view.phase === "scribbling" && !drawing.shown)) {
      // The drawing screen: the board as large as the screen allows, everything else beside it (a wide
      // screen) or under it in two columns (a tall one), so nothing needed to play is below the fold.
      const drawingNow = view.phase === "scribbling" && live;
      const reading = view.phase === "looking";
      const side = [conceptCard(view, me, ui, ctx, !reading, live)];
      // while reading, what the drawing is going to be like (beside the board's side and turn buttons)
      const readNote = live && reading
        ? [h("p", { class: "ml-read-note" }, gettext("Only you can see it. Read it, then get ready to draw it using only the dotted lines. No letters or numbers!")),
          h("p", { class: "ml-hint" }, interpolate(gettext("You will have %(seconds)s seconds to draw."), {
            seconds: view.timers ? view.timers.draw_seconds : 120,
          }))]
        : null;
      let finish = null;
      if (live && reading) {
        finish = me.ready
          ? h("p", { class: "ml-waiting" }, gettext("Waiting for the others to read theirs…"))
          : button(gettext("I know my concept"), () => send(ui, ctx, { type: "ready" }).catch(() => {}), { class: "big", "data-focus": "ready" });
      } else if (drawingNow) {
        finish = doneControl(ui, ctx);
      }
      parts.push(h("div", { class: `ml-split${reading ? " ml-reading" : ""}` },
        header(view, table, ctx, false, ui),
        h("div", { class: "ml-board-wrap" }, drawingBoard(view, ui, ctx, drawing, drawingNow)),
        h("div", { class: "ml-side-panel" },
          h("div", { class: "ml-side-first" }, side),
          live ? h("div", { class: "ml-side-kit" },
            drawingNow ? drawingTools(view, table, me, ui, ctx, drawing) : null,
            boardControls(view, me, ui, ctx, drawing), readNote) : null,
          h("div", { class: "ml-side-done" }, finish, messageLine(ui)),
          playerStatus(view, me.player))));
      return parts;
    }
    parts.push(header(view, table, ctx, false, ui));
    if (view.phase === "scribbling") {
      if (live) parts.push(h("p", { class: "ml-waiting" }, gettext("Your drawing is shown. Waiting for the others to finish…")));
      parts.push(gallery(view, ctx, { me: me.player }));
      parts.push(playerStatus(view, me.player));
    } else if (view.phase === "prophesying") {
      const many = view.prophecy.cards.length > 10; // groups of 6 to 8, and of 3: the cards get more room
      parts.push(h("div", { class: `ml-two${many ? " ml-many-cards" : ""}` },
        prophesyingPanel(view, ui, ctx, me, live),
        h("section", { class: "ml-beside", "aria-label": gettext("The group's drawings") },
          h("h3", {}, gettext("The group's drawings")),
          gallery(view, ctx, { me: me.player }))));
    } else if (view.phase === "reveal") {
      const { reveal } = conceptTexts(view);
      parts.push(h("div", { class: "ml-next" },
        roundSummary(view, reveal),
        !live ? null : me.continued
          ? h("p", { class: "ml-waiting" }, gettext("Waiting for the others…"))
          : button(view.round >= view.rounds ? gettext("Continue") : gettext("Next round"),
            () => send(ui, ctx, { type: "continue" }).catch(() => {}), { class: "big", "data-focus": "continue" })));
      parts.push(messageLine(ui));
      parts.push(revealCards(view, reveal, me.player, false));
      parts.push(gallery(view, ctx, { me: me.player, labels: drawnLabels(view, reveal) }));
    } else if (view.phase === "over") {
      const { reveal } = conceptTexts(view);
      parts.push(resultPanel(view, me.player, false));
      if (reveal) {
        parts.push(h("h3", {}, interpolate(gettext("Round %(round)s"), { round: reveal.round })));
        parts.push(revealCards(view, reveal, me.player, false));
        parts.push(gallery(view, ctx, { me: me.player, labels: drawnLabels(view, reveal) }));
      }
    }
    return parts;
  }

  /** Each player's recognised concepts over the rounds revealed so far (the engine's standing). */
  function standing(view) {
    const scores = new Map(view.players.map((player) => [player.id, 0]));
    for (const round of view.history || []) {
      for (const card of round.cards) {
        if (card.drawn_by && card.excluded_by === null) scores.set(card.drawn_by, (scores.get(card.drawn_by) || 0) + 1);
      }
    }
    return scores;
  }

  /** A game the teacher ended before it was over: said on every screen, with the standing at that moment. */
  function endedPanel(view, me, large) {
    const scores = standing(view);
    return h(
      "section",
      { class: `ml-result ml-ended-result${large ? " ml-large" : ""}`, role: "status" },
      h("h3", {}, h("span", { "aria-hidden": "true" }, "■ "), gettext("The teacher ended this game.")),
      h("p", {}, interpolate(
        gettext("It ended in round %(round)s of %(rounds)s. Error points: %(errors)s (the group could have %(limit)s)."),
        { round: Math.min(view.round, view.rounds), rounds: view.rounds, errors: view.errors, limit: view.error_limit },
      )),
      h("ul", { class: "ml-scores", "aria-label": gettext("Concepts each player drew that the group recognised") },
        view.players.map((player) => h("li", {}, interpolate(
          ngettext(
            "%(name)s: %(count)s concept recognised",
            "%(name)s: %(count)s concepts recognised",
            scores.get(player.id) || 0,
          ),
          { name: nameOf(view, player.id, me), count: scores.get(player.id) || 0 },
        )))),
    );
  }

  function prophesyingPanel(view, ui, ctx, me, live) {
    const prophecy = view.prophecy;
    const myTurn = Boolean(live && me && me.my_turn);
    const total = prophecy.turn_order.length;
    const turnText = interpolate(gettext("Exclusion %(number)s of %(total)s"), {
      number: Math.min(prophecy.turns_taken + 1, total),
      total,
    });
    const selected = myTurn ? ui.selectedCard : null;
    const pick = myTurn
      ? (card) => {
        ui.selectedCard = ui.selectedCard === card ? null : card;
        ui.rerender();
      }
      : null;
    const selectedCard = selected === null ? null : prophecy.cards.find((card) => card.card === selected);
    const confirm = myTurn && selectedCard && selectedCard.excluded_by === null
      ? h("div", { class: "ml-confirm", role: "group", "aria-label": gettext("Exclude this concept?") },
        button(interpolate(gettext("Exclude “%(text)s”"), { text: selectedCard.text }), () => {
          const card = ui.selectedCard;
          ui.selectedCard = null;
          send(ui, ctx, { type: "exclude", card }).catch(() => {});
        }, { class: "big", "data-focus": "exclude" }),
        button(gettext("Choose another"), () => {
          ui.selectedCard = null;
          ui.rerender();
        }, { class: "secondary", "data-focus": "exclude-cancel" }))
      : null;
    return h(
      "section",
      { class: "ml-prophecy" },
      h("p", { class: `ml-turn${myTurn ? " ml-my-turn" : ""}` },
        myTurn
          ? gettext("Your turn: exclude one concept you think nobody drew.")
          : interpolate(gettext("%(name)s is excluding a concept. No talking, no hints!"), {
            name: nameOf(view, view.turn, null),
          })),
      h("p", { class: "ml-hint" }, turnText),
      // the confirmation takes the hint's place above the cards, so it is never below the fold
      confirm || (myTurn ? h("p", { class: "ml-hint ml-pick-hint" }, gettext("Tap a card, then confirm. You can't exclude your own concept.")) : null),
      me ? messageLine(ui) : null,
      prophecyCards(view, me ? me.player : null, { onPick: pick, selected, mine: me ? me.cards : null, large: false }),
    );
  }

  // ------------------------------------------------------------------------------------------------
  // Teacher console, projector, replay
  // ------------------------------------------------------------------------------------------------

  function teacherScreen(view, table, ui, ctx) {
    const controls = ctx.role === "teacher" && table.status === "playing"
      ? {
        hide: (player, hidden) => send(ui, ctx, { type: hidden ? "unhide" : "hide", player })
          .then(() => ctx.announce(hidden ? gettext("Drawing shown again") : gettext("Drawing hidden")))
          .catch(() => {}),
      }
      : null;
    const teacherDrawings = view.teacher ? view.teacher.drawings : null;
    const { reveal } = conceptTexts(view);
    const revealed = ["reveal", "over"].includes(view.phase) && reveal;
    const parts = [header(view, table, ctx, false, ui)];
    if (table.status === "playing" || view.phase === "over") parts.push(playerStatus(view, null));
    if (view.phase === "prophesying") {
      parts.push(prophesyingPanel(view, ui, ctx, null, false));
    }
    if (revealed) {
      parts.push(view.phase === "over" ? resultPanel(view, null, false) : roundSummary(view, reveal));
      if (!ctx.compact) parts.push(revealCards(view, reveal, null, false));
    }
    if (view.phase === "looking") {
      parts.push(h("p", { class: "ml-hint" }, gettext("Everyone is reading their secret concept.")));
    } else {
      parts.push(gallery(view, ctx, {
        teacherDrawings,
        controls,
        labels: revealed ? drawnLabels(view, reveal) : null,
      }));
    }
    if (controls) parts.push(messageLine(ui));
    if (ctx.compact) {
      parts.push(h("p", { class: "ml-hint" }, gettext("Hide a drawing that has letters or numbers. You never see the concepts before the reveal.")));
    }
    return parts;
  }

  function projectorScreen(view, table, ui, ctx) {
    const parts = [header(view, table, ctx, true, ui)];
    const { reveal } = conceptTexts(view);
    if (table.status === "ended" && view.phase !== "over") {
      // the ended panel goes under the header (render); then what the group had drawn
      parts.push(gallery(view, ctx, { large: true }));
    } else if (view.phase === "looking") {
      parts.push(h("p", { class: "ml-big-note" }, gettext("Read your secret concept on your device. Don't say it!")));
      parts.push(playerStatus(view, null));
    } else if (view.phase === "scribbling") {
      parts.push(h("p", { class: "ml-big-note" }, gettext("Draw only on the dotted lines. No letters, no numbers!")));
      parts.push(gallery(view, ctx, { large: true }));
    } else if (view.phase === "prophesying") {
      parts.push(h("p", { class: "ml-big-note" }, interpolate(gettext("%(name)s is excluding a concept. No talking!"), {
        name: nameOf(view, view.turn, null),
      })));
      // the cards beside the drawings when the group's part of the screen is wide, above them when not
      parts.push(h("div", { class: "ml-pair" },
        prophecyCards(view, null, { large: true }),
        gallery(view, ctx, { large: true })));
    } else if (reveal) {
      parts.push(view.phase === "over" ? resultPanel(view, null, true) : roundSummary(view, reveal));
      parts.push(h("div", { class: "ml-pair" },
        revealCards(view, reveal, null, true),
        gallery(view, ctx, { large: true, labels: drawnLabels(view, reveal) })));
    }
    return parts;
  }

  // ------------------------------------------------------------------------------------------------
  // Announcements: phase changes, turns, exclusions
  // ------------------------------------------------------------------------------------------------

  function announceChanges(view, table, ui, ctx) {
    const me = view.me ? view.me.player : null;
    if (ctx.role === "teacher" || ctx.role === "replay") {
      // the console holds every group: only a group's end is worth interrupting the teacher for
      if (ui.announced && ui.announced !== "over" && view.phase === "over" && view.result) {
        ctx.announce(interpolate(
          view.result.won ? gettext("Group %(number)s wins.") : gettext("Group %(number)s has lost."),
          { number: table.number },
        ));
      }
      ui.announced = view.phase === "over" ? "over" : view.phase;
      return;
    }
    const key = `${view.round}:${view.phase}:${view.turn || ""}`;
    if (ui.announced && ui.announced !== key) {
      let text = "";
      if (view.phase === "looking") text = interpolate(gettext("Round %(round)s: read your secret concept."), { round: view.round });
      else if (view.phase === "scribbling") text = gettext("Start drawing! Only on the dotted lines.");
      else if (view.phase === "prophesying") {
        text = view.turn === me
          ? gettext("Your turn: exclude one concept you think nobody drew.")
          : interpolate(gettext("%(name)s is excluding a concept."), { name: nameOf(view, view.turn, null) });
      } else if (view.phase === "reveal") {
        const reveal = view.history[view.history.length - 1];
        text = interpolate(
          ngettext("The reveal: %(count)s error point this round.", "The reveal: %(count)s error points this round.", reveal.errors),
          { count: reveal.errors },
        );
      } else if (view.phase === "over" && view.result) {
        text = view.result.won ? gettext("The group wins!") : gettext("The game is lost.");
      }
      const last = (view.log || []).filter((event) => event.type === "excluded").pop();
      if (last && ui.logSeen !== null && last.at !== ui.logSeen) {
        text = `${exclusionText(view, last, me)} ${text}`;
      }
      if (text) ctx.announce(text.trim());
    }
    ui.announced = key;
    const last = (view.log || []).filter((event) => event.type === "excluded").pop();
    ui.logSeen = last ? last.at : 0;
  }

  // ------------------------------------------------------------------------------------------------
  // Fitting the drawing screen to the device: the board as large as the screen allows
  // ------------------------------------------------------------------------------------------------

  const BOARD_MIN = 240; // px: smaller than this and a finger cannot hit a line (the page scrolls instead)
  const BOARD_MAX = 760;
  const BOTTOM_GAP = 14; // px kept free under the lowest control

  /** Sizes the board so that it and every control of the drawing screen are on the screen at once: on a
   *  wide screen the panel is beside the board, which takes the height left under its top; on a tall one
   *  the panel is under it, and the board takes the height the panel leaves. Runs after every render and
   *  on every resize (a tablet turned round, a window made smaller). */
  function fitBoard(root) {
    const board = root.querySelector(".ml-main-board");
    const split = root.querySelector(".ml-split");
    if (!board || !split) return;
    const panel = split.querySelector(".ml-side-panel");
    const stacked = getComputedStyle(split).getPropertyValue("--ml-stacked").trim() === "1";
    const boardBox = board.getBoundingClientRect();
    const top = boardBox.top + window.scrollY;
    let below = 0;
    if (stacked && panel) {
      // everything a player needs under the board (not the list of players, which may go below the fold;
      // nor the tools beside it, which a smaller board would not lift: a tall column of them, as larger
      // text makes, shrank the board at every render)
      let lowest = boardBox.bottom;
      for (const part of panel.querySelectorAll(".ml-side-first, .ml-side-kit, .ml-side-done")) {
        const box = part.getBoundingClientRect();
        if (box.top >= boardBox.bottom - 1) lowest = Math.max(lowest, box.bottom);
      }
      below = lowest - boardBox.bottom;
    }
    const style = getComputedStyle(split);
    const gap = parseFloat(style.columnGap) || 0;
    // beside the board: the panel on a wide screen, the column of tools on a tall one
    const beside = parseFloat(style.getPropertyValue(stacked ? "--ml-kit-width" : "--ml-panel-min")) || 0;
    const wide = split.clientWidth - (beside ? beside + gap : 0);
    const tall = window.innerHeight - top - below - BOTTOM_GAP;
    let size = Math.floor(Math.max(BOARD_MIN, Math.min(BOARD_MAX, wide, tall)));
    root.style.setProperty("--ml-board", `${size}px`);
    if (stacked || !panel) return;
    // Beside the board, the panel wraps its buttons into more rows the narrower it is: while its last
    // control ends under the screen's bottom, a smaller board gives the panel the width it needs.
    const needed = () => Math.max(0, ...[...panel.querySelectorAll(".ml-side-first, .ml-side-kit, .ml-side-done")]
      .map((part) => part.getBoundingClientRect().bottom));
    for (let tries = 0; tries < 8 && size > BOARD_MIN; tries += 1) {
      const over = needed() - (window.innerHeight - BOTTOM_GAP);
      if (over <= 0) break;
      size = Math.max(BOARD_MIN, size - Math.max(16, Math.ceil(over / 2)));
      root.style.setProperty("--ml-board", `${size}px`);
    }
  }

  /** The projector shows every group at once, whatever their number: the groups share the screen in a
   *  grid (columns by CSS, from the number of groups) and each group's screen takes the largest scale at
   *  which it fits the height of its cell (larger than life when there is room: it is read from the back
   *  of the class). Nothing is cut and nothing needs scrolling on the class's screen. */
  const ZOOM_MIN = 0.3;
  const ZOOM_MAX = 1.6;

  function projectorCell(grid, count) {
    const style = getComputedStyle(grid);
    const columns = Math.max(1, style.gridTemplateColumns.split(" ").filter(Boolean).length);
    const rows = Math.ceil(count / columns);
    const rowGap = parseFloat(style.rowGap) || 0;
    const top = grid.getBoundingClientRect().top + window.scrollY;
    const main = grid.closest("main") || document.body;
    const bottom = parseFloat(getComputedStyle(main).paddingBottom) || 0;
    return (window.innerHeight - top - bottom - 8 - rowGap * (rows - 1)) / rows;
  }

  function fitProjectorGroup(root, cell) {
    const card = root.closest(".table-card") || root.parentElement;
    root.style.zoom = "1";
    const chrome = card.getBoundingClientRect().height - root.getBoundingClientRect().height;
    const room = cell - chrome;
    const fits = (zoom) => {
      root.style.zoom = String(zoom);
      return root.getBoundingClientRect().height <= room + 0.5;
    };
    // the height is neither proportional nor even monotonic in the scale (a group's grids take more
    // columns when it is smaller), so the scales are tried from the largest down in steps of 0.1, then
    // the step above the first that fits is halved a few times
    let low = ZOOM_MIN;
    let high = ZOOM_MAX;
    for (let zoom = ZOOM_MAX; zoom >= ZOOM_MIN - 0.001; zoom -= 0.1) {
      if (fits(zoom)) {
        low = zoom;
        high = Math.min(ZOOM_MAX, zoom + 0.1);
        break;
      }
    }
    for (let round = 0; round < 4 && high - low > 0.01; round += 1) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle;
      else high = middle;
    }
    root.style.zoom = String(low);
    root.dataset.zoom = low.toFixed(2);
  }

  function fitProjector(only) {
    const grid = document.querySelector(".projector-tables");
    if (!grid) return;
    const roots = [...grid.querySelectorAll(".ml-role-projector")];
    if (!roots.length) return;
    const cell = projectorCell(grid, grid.children.length);
    for (const root of only ? [only] : roots) fitProjectorGroup(root, cell);
  }

  function fitAll() {
    for (const root of document.querySelectorAll(".ml-root")) fitBoard(root);
    fitProjector();
  }
  window.addEventListener("resize", fitAll);
  window.addEventListener("orientationchange", fitAll);

  // ------------------------------------------------------------------------------------------------
  // render
  // ------------------------------------------------------------------------------------------------

  function render(container, table, ctx) {
    const ui = memoryFor(table);
    const view = table.view || {};
    if (ui.drag) {
      // never pull the board out from under a finger: draw the change when the stroke ends
      ui.deferred = [container, table, ctx];
      return;
    }
    ui.lastSeq = Math.max(ui.lastSeq, table.seq || 0);
    ui.pending = ui.pending.filter((pending) => pending.seq === null || pending.seq > ui.lastSeq);
    const roundKey = `${view.round}:${view.phase}`;
    if (ui.roundKey !== roundKey) {
      if (ui.roundKey.split(":")[0] !== String(view.round)) {
        ui.hideConcept = false;
        const tool = ctx.draft ? ctx.draft(`mindlines:tool:${table.table}:${view.round}`) : null;
        ui.tool = tool === "eraser" ? "eraser" : "pen";
      }
      ui.selectedCard = null;
      ui.confirmDone = false;
      ui.confirmClear = false;
      ui.penDown = null;
      ui.message = "";
      ui.roundKey = roundKey;
    }
    if (view.phase !== "prophesying" || !(view.me && view.me.my_turn)) ui.selectedCard = null;
    ui.rerender = () => render(container, table, ctx);
    const drawingNow = view.me && view.phase === "scribbling" && !view.me.drawing.shown ? view.me.drawing : null;
    const unsentKey = drawingNow ? `mindlines:unsent:${table.table}:${view.round}` : null;
    if (unsentKey && ui.unsentKey !== unsentKey) {
      ui.unsentKey = unsentKey;
      restoreUnsent(ui, ctx, drawingNow);
    } else if (!unsentKey) {
      ui.unsentKey = null;
    }

    const focused = container.contains(document.activeElement) ? document.activeElement.getAttribute("data-focus") : null;
    const role = ctx.role === "player" && view.me ? "player" : ctx.role;
    let parts;
    if (role === "player") parts = playerScreen(view, table, ui, ctx);
    else if (role === "projector") parts = projectorScreen(view, table, ui, ctx);
    else parts = teacherScreen(view, table, ui, ctx);

    const root = h("div", {
      class: `ml-root ml-role-${role}${ctx.compact ? " ml-compact" : ""} ml-phase-${view.phase}`,
      "data-game": GAME,
      "data-phase": view.phase,
      "data-round": view.round,
    }, parts);
    if (table.status === "ended" && role !== "player" && view.phase !== "over") {
      root.querySelector(".ml-header").after(endedPanel(view, null, role === "projector"));
    }
    container.replaceChildren(root);
    fitBoard(root);
    if (role === "projector") fitProjector(root);
    if (focused) {
      const again = container.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
    announceChanges(view, table, ui, ctx);
  }

  const api = { render };
  // exposed for tests and for the replay page's step-through
  api._geometry = { piecesOf, halvesOfStroke, canonical, Pen, unrotate };
  // the sentences about a player, as each viewer reads them (tests/i18n/test_viewer_sentences.py)
  api.helpers = { drawingLabel, drawnByText, excludedByText, exclusionText, themeName };

  registerGame(GAME, api);
})();
