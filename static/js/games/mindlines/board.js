/* Mind the Lines' board: each piece of the screen as elements (a board's picture, the gallery, the cards,
 * the result, the drawing tools), from a scene. No listener: a control says what it does in data-action
 * (and data-player, data-card, data-tool, data-turn), which input.js reads; data-fk is its focus key.
 * Part of the game's screen (docs/frontend.md).
 */

/**
 * What one draw shows (view.js, sceneOf).
 * @typedef {object} MindlinesScene
 * @property {TableMessage} table
 * @property {MindlinesView} view
 * @property {GameContext} ctx
 * @property {string} uid a prefix for ids unique on the page
 * @property {MindlinesInputState} state the viewer's input in progress
 * @property {boolean} live the table is still being played
 */

(function () {
  "use strict";

  const { h, svg: s, gettext, ngettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("mindlines");
  const { GRID, MAX_STROKES, MAX_HALVES, halvesOfStroke, pathOfHalves, pathOfStroke, pathOfLines, parseKey } = pieces;
  const { sideName, nameOf, themeName, phaseTitle, errorsText, drawingLabel, drawnByText, excludedByText } = pieces;
  const { standing, boardLabel } = pieces;

  /** A button that says what it does: data-action (input.js acts on it), data-fk its focus key.
   *  @param {any} label @param {string} action @param {string} focusKey @param {object} [attrs] */
  function button(label, action, focusKey, attrs) {
    return h("button", { type: "button", "data-action": action, "data-fk": focusKey, ...(attrs || {}) }, label);
  }

  // every lattice dot as a zero-length round-capped line: one path instead of 144 circles per board
  const DOTS = Array.from({ length: GRID * GRID }, (_v, i) => `M${i % GRID} ${Math.floor(i / GRID)}h0`).join("");

  /** A board's picture (the same on every screen, from the snapped strokes).
   *  @param {{lines?: MindlinesSegment[], strokes?: MindlinesStroke[] | null, rotation?: number, label: string,
   *   className?: string, hidden?: boolean, id?: string}} board */
  function boardSvg({ lines, strokes, rotation, label, className, hidden, id }) {
    const svg = s("svg", {
      id,
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

  /** The viewer's own board: its ink, the strokes on their way (pale), the keyboard's pen and its stroke.
   *  An editable board is an application the pen draws on (input.js: pointer and keys).
   *  @param {MindlinesScene} scene @param {MindlinesOwnDrawing} drawing @param {boolean} editable */
  function drawingBoard(scene, drawing, editable) {
    const { state } = scene;
    const svg = boardSvg({
      id: `${scene.uid}-board`,
      lines: drawing.sides[drawing.side],
      strokes: drawing.strokes,
      rotation: drawing.rotation,
      label: boardLabel(drawing, editable),
      className: "ml-main-board",
    });
    const pos = state.penDown ? state.penDown.pos : state.cursor;
    const live = state.penDown ? pathOfHalves([...state.penDown.halves].map(parseKey)) : "";
    svg.querySelector(".ml-ink").append(
      s("path", { class: "ml-stroke ml-pending", d: pathOfHalves(state.pending.flatMap((p) => p.halves)) }),
      s("path", { class: "ml-stroke ml-live", d: live }),
      s("path", { class: "ml-rub", d: "" }),
    );
    if (!editable) return svg;
    svg.querySelector(".ml-turn").append(
      s("circle", { r: 0.28, class: `ml-cursor${state.penDown ? " ml-cursor-down" : ""}`, cx: pos.X / 2, cy: pos.Y / 2 }),
    );
    svg.classList.add(state.tool === "eraser" ? "ml-erasing" : "ml-drawing-pen");
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "application");
    svg.setAttribute("aria-roledescription", gettext("drawing board"));
    svg.setAttribute("data-fk", "board");
    svg.setAttribute("data-pen", "on");
    svg.setAttribute(
      "aria-keyshortcuts",
      "ArrowUp ArrowDown ArrowLeft ArrowRight Home End PageUp PageDown Space Enter Escape U P X",
    );
    return svg;
  }

  /** The phase, the round, the error points and the clock (drawn by input.js after each draw).
   *  @param {MindlinesScene} scene @param {boolean} large */
  function header(scene, large) {
    const { view, table } = scene;
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
      h("span", { class: "ml-timer countdown", id: `${scene.uid}-timer` }),
    );
  }

  /** Every player's drawing, as far as the viewer may see it.
   *  @param {MindlinesScene} scene
   *  @param {{me?: string | null, teacherDrawings?: Record<string, MindlinesGalleryEntry> | null,
   *   labels?: Map<string, string> | null, large?: boolean, controls?: boolean}} options */
  function gallery(scene, { me, teacherDrawings, labels, large, controls }) {
    const { view } = scene;
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
      figure.append(h("figcaption", {},
        h("strong", {}, h("bdi", {}, nameOf(view, player.id, me))),
        player.bot ? h("span", { class: "badge" }, gettext("computer")) : null,
        entry.hidden ? h("span", { class: "badge bad" }, gettext("hidden")) : null,
        !entry.shown ? h("span", { class: "badge" }, gettext("drawing…")) : null,
        concept ? h("span", { class: "ml-concept-tag" }, concept) : null,
      ));
      if (controls && ["scribbling", "prophesying"].includes(view.phase)) {
        const hidden = entry.hidden;
        figure.append(
          button(hidden ? gettext("Show again") : gettext("Hide drawing"), "hide", `hide-${player.id}`, {
            class: `secondary ml-small${hidden ? "" : " danger"}`,
            "data-player": player.id,
            "data-hidden": hidden ? "true" : "false",
            "aria-label": interpolate(
              hidden ? gettext("Show again the drawing by %(name)s") : gettext("Hide drawing by %(name)s"),
              { name: player.name },
            ),
          }),
        );
      }
      return figure;
    });
    return h("div", { class: `ml-gallery${large ? " ml-large" : ""}` }, items);
  }

  /** A card's word: a long single word is set a little smaller, so that it wraps between words (or not at
   *  all), never letter by letter, on a narrow card. @param {string} text */
  function cardText(text) {
    const longest = Math.max(0, ...String(text).split(/\s+/).map((word) => word.length));
    const size = longest >= 13 ? "ml-longer" : longest >= 10 ? "ml-long" : "";
    return h("span", { class: "ml-card-text" }, size ? h("span", { class: size }, text) : text);
  }

  /** @param {MindlinesView} view @param {MindlinesRound} reveal @param {string | null} me @param {boolean} large */
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

  /** @param {MindlinesView} view @param {MindlinesRound} reveal */
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

  /** @param {MindlinesView} view @param {string | null} me @param {(id: string) => number} scoreOf */
  function scoreList(view, me, scoreOf) {
    return h("ul", { class: "ml-scores", "aria-label": gettext("Concepts each player drew that the group recognised") },
      view.players.map((player) => h("li", {}, interpolate(
        ngettext(
          "%(name)s: %(count)s concept recognised",
          "%(name)s: %(count)s concepts recognised",
          scoreOf(player.id),
        ),
        { name: nameOf(view, player.id, me), count: scoreOf(player.id) },
      ))));
  }

  /** @param {MindlinesView} view @param {string | null} me @param {boolean} large */
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
      scoreList(view, me, (id) => result.scores[id] || 0)),
    );
  }

  /** A game the teacher ended before it was over: said on every screen, with the standing at that moment.
   *  @param {MindlinesView} view @param {string | null} me @param {boolean} large */
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
      scoreList(view, me, (id) => scores.get(id) || 0),
    );
  }

  /** @param {MindlinesView} view @param {string | null} me */
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

  /** The cards on the table; on the prophesier's device the others' open cards are buttons to pick.
   *  @param {MindlinesView} view @param {string | null} me
   *  @param {{pickable?: boolean, selected?: number | null, mine?: number[] | null, large?: boolean}} options */
  function prophecyCards(view, me, { pickable, selected, mine, large }) {
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
        if (pickable && !out && !own) {
          return h("li", { class: classes.join(" ") }, button(inner, "pick", `card-${card.card}`, {
            class: "ml-card-button",
            "aria-pressed": selected === card.card ? "true" : "false",
            "data-card": card.card,
          }));
        }
        return h("li", { class: classes.join(" "), "data-card": card.card }, inner);
      }),
    );
  }

  /** The viewer's secret concepts (hidden from people walking past at the viewer's wish).
   *  @param {MindlinesScene} scene @param {boolean} compact */
  function conceptCard(scene, compact) {
    const { view, state, live } = scene;
    const concepts = view.me.concepts || [];
    const title = concepts.length > 1 ? gettext("Your two secret concepts") : gettext("Your secret concept");
    const hidden = state.hideConcept && view.phase === "scribbling";
    return h(
      "section",
      { class: `ml-secret${compact ? " ml-compact-secret" : ""}`, "aria-label": title },
      h("div", { class: "ml-secret-head" },
        h("h3", {}, title),
        view.phase === "scribbling" && live
          ? button(hidden ? gettext("Show my concept") : gettext("Hide my concept"), "toggle-concept", "toggle-concept", {
            class: "secondary ml-small",
          })
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

  /** The board's side and its bottom edge. @param {MindlinesScene} scene @param {MindlinesOwnDrawing} drawing */
  function boardControls(scene, drawing) {
    const empty = drawing.strokes.length === 0 && !scene.state.pending.length;
    return h(
      "div",
      { class: "ml-board-controls", role: "group", "aria-label": gettext("Board side and bottom edge") },
      button(drawing.side === 0 ? gettext("Use side B") : gettext("Use side A"), "side", "side", {
        class: "secondary",
        disabled: !empty,
        title: empty ? null : gettext("Clear the board to change side"),
      }),
      button(h("span", {}, h("span", { "aria-hidden": "true" }, "↺ "), gettext("Turn left")), "turn", "turn-left", {
        class: "secondary",
        "data-turn": "-90",
      }),
      button(h("span", {}, h("span", { "aria-hidden": "true" }, "↻ "), gettext("Turn right")), "turn", "turn-right", {
        class: "secondary",
        "data-turn": "90",
      }),
      h("span", { class: "ml-hint" }, interpolate(gettext("Now on %(side)s. The thick edge is the bottom."), {
        side: sideName(drawing.side),
      })),
      empty ? null : h("span", { class: "ml-hint" }, gettext("To change side, clear the board first.")),
    );
  }

  /** Pen, eraser, undo, clear (asked twice), and how much ink is left.
   *  @param {MindlinesScene} scene @param {MindlinesOwnDrawing} drawing */
  function drawingTools(scene, drawing) {
    const { state } = scene;
    const halves = drawing.strokes.reduce((sum, stroke) => sum + halvesOfStroke(stroke).length, 0);
    /** @param {string} name @param {string} label @param {string} icon */
    const tool = (name, label, icon) =>
      button(h("span", {}, h("span", { "aria-hidden": "true" }, `${icon} `), label), "tool", `tool-${name}`, {
        class: state.tool === name ? "ml-tool ml-on" : "ml-tool secondary",
        "aria-pressed": state.tool === name ? "true" : "false",
        "data-tool": name,
      });
    const clear = state.confirmClear
      ? h("span", { class: "ml-confirm-inline" },
        button(gettext("Yes, clear it all"), "clear-yes", "clear-yes", { class: "danger" }),
        button(gettext("No"), "clear-no", "clear-no", { class: "secondary" }))
      : button(gettext("Clear board"), "clear", "clear", { class: "secondary", disabled: drawing.strokes.length === 0 });
    return h(
      "div",
      { class: "ml-tools" },
      h("div", { class: "ml-toolrow", role: "group", "aria-label": gettext("Tools") },
        tool("pen", gettext("Pen"), "✎"),
        tool("eraser", gettext("Eraser"), "⌫"),
        button(h("span", {}, h("span", { "aria-hidden": "true" }, "↶ "), gettext("Undo")), "undo", "undo", {
          class: "secondary",
          disabled: !drawing.can_undo,
        }),
        clear),
      h("p", { class: "ml-hint" }, state.tool === "eraser"
        ? gettext("Eraser: rub over lines to erase them, or tap a line to erase its whole stroke.")
        : gettext("Pen: draw along the dotted lines. You can stop half-way along a line.")),
      h("p", { class: "ml-ink-meter" }, interpolate(
        gettext("Strokes: %(strokes)s of %(max_strokes)s · ink: %(ink)s of %(max_ink)s"),
        { strokes: drawing.strokes.length, max_strokes: MAX_STROKES, ink: halves, max_ink: MAX_HALVES },
      )),
    );
  }

  /** Done (confirmed: a shown drawing is final). @param {MindlinesScene} scene */
  function doneControl(scene) {
    return scene.state.confirmDone
      ? h("div", { class: "ml-confirm", role: "group", "aria-label": gettext("Show your drawing?") },
        h("p", {}, gettext("Show your drawing now? You can't change it after this.")),
        button(gettext("Yes, show it"), "done-yes", "done-yes", { class: "big" }),
        button(gettext("Keep drawing"), "done-no", "done-no", { class: "secondary" }))
      : button(gettext("Done: show my drawing"), "done", "done", { class: "big ml-done" });
  }

  /** The screen's own message (a refused move, a stroke that did not start on a line).
   *  @param {MindlinesScene} scene */
  function messageLine(scene) {
    return h("p", { class: "ml-message", role: "status" }, scene.state.message || "");
  }

  /** Whose turn it is to exclude, and on the prophesier's device the cards to pick and the confirmation.
   *  @param {MindlinesScene} scene @param {MindlinesMe | null} me */
  function prophesyingPanel(scene, me) {
    const { view, state, live } = scene;
    const prophecy = view.prophecy;
    const myTurn = Boolean(live && me && me.my_turn);
    const total = prophecy.turn_order.length;
    const turnText = interpolate(gettext("Exclusion %(number)s of %(total)s"), {
      number: Math.min(prophecy.turns_taken + 1, total),
      total,
    });
    const selected = myTurn ? state.selectedCard : null;
    const selectedCard = selected === null ? null : prophecy.cards.find((card) => card.card === selected);
    const confirm = myTurn && selectedCard && selectedCard.excluded_by === null
      ? h("div", { class: "ml-confirm", role: "group", "aria-label": gettext("Exclude this concept?") },
        button(interpolate(gettext("Exclude “%(text)s”"), { text: selectedCard.text }), "exclude", "exclude", { class: "big" }),
        button(gettext("Choose another"), "exclude-cancel", "exclude-cancel", { class: "secondary" }))
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
      me ? messageLine(scene) : null,
      prophecyCards(view, me ? me.player : null, { pickable: myTurn, selected, mine: me ? me.cards : null, large: false }),
    );
  }

  Object.assign(pieces, {
    button,
    boardSvg,
    drawingBoard,
    header,
    gallery,
    revealCards,
    roundSummary,
    resultPanel,
    endedPanel,
    playerStatus,
    prophecyCards,
    conceptCard,
    boardControls,
    drawingTools,
    doneControl,
    messageLine,
    prophesyingPanel,
  });
})();
