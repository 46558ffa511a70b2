/* Word Up's board: each piece of the screen as elements (the squares and pawns, the dice, the token table,
 * the log, a card, the question on show, the last answer, the move buttons), built from the view message
 * with ClassplayUI's h. Pure: no listener and no state here; a control says what it does in data-*
 * attributes (data-move: the move it sends, as JSON; data-action: a sound to play; data-key: its key) and
 * input.js acts on them.
 */
(function () {
  "use strict";

  const { h, icon: drawIcon, gettext, ngettext } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("wordup");
  const { fmt, categoryInfo, squareName, players, playerIndex, playerOf, me, isMe, who, boardSummary } = pieces;
  const { eventText, cardText, askLeftNote, spellingInstruction, answeredLabel, rightAnswers } = pieces;

  const LOG_SHOWN = 8;
  const PAWNS = ["p1", "p2", "p3", "p4", "p5", "p6"];
  // Word Up's words, clues and sentences are English (what it teaches): marked so, and left to right on an
  // Arabic page too; the instructions around them are in the device's language (docs/games/wordup.md).
  const ENGLISH = { lang: "en", dir: "ltr" };

  /** The category's symbol, so a colour is never the only cue (colour-blind students). @param {string} name */
  function icon(name) {
    const stroke = { fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" };
    switch (name) {
      case "gap": // word, a gap to fill, word
        return drawIcon("0 0 24 24", "wu-icon", ["rect", { x: 1, y: 9, width: 6, height: 5, rx: 1, fill: "currentColor" }], [
          "rect",
          { x: 17, y: 9, width: 6, height: 5, rx: 1, fill: "currentColor" },
        ], ["path", { ...stroke, "stroke-width": 2.6, d: "M9.5 15h5" }]);
      case "grid": // crossword squares
        return drawIcon("0 0 24 24", "wu-icon", ["path", { ...stroke, d: "M4 4h16v16H4zM4 12h16M12 4v16" }], [
          "rect",
          { x: 12, y: 4, width: 8, height: 8, fill: "currentColor" },
        ]);
      case "list": // three answers
        return drawIcon("0 0 24 24", "wu-icon", ["path", { ...stroke, d: "M10 6h10M10 12h10M10 18h10" }], ["circle", { cx: 5, cy: 6, r: 1.8, fill: "currentColor" }], ["circle", { cx: 5, cy: 12, r: 1.8, fill: "currentColor" }], ["circle", { cx: 5, cy: 18, r: 1.8, fill: "currentColor" }]);
      case "ear": // heard: a speaker
        return drawIcon("0 0 24 24", "wu-icon", ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }], ["path", { ...stroke, d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" }]);
      case "star":
        return drawIcon("0 0 24 24", "wu-icon", ["path", { d: "M12 2.5l2.9 6.2 6.6.7-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.7z", fill: "currentColor" }]);
      case "stop":
        return drawIcon("0 0 24 24", "wu-icon", ["path", { d: "M8 2h8l6 6v8l-6 6H8l-6-6V8z", fill: "currentColor" }], ["path", { d: "M7 12h10", stroke: "#fff", "stroke-width": 3 }]);
      case "card":
        return drawIcon("0 0 24 24", "wu-icon", ["rect", { x: 5, y: 3, width: 14, height: 18, rx: 2, fill: "none", stroke: "currentColor", "stroke-width": 2.2 }], ["path", { d: "M9 9l1.5 6L12 10l1.5 5L15 9", fill: "none", stroke: "currentColor", "stroke-width": 1.8 }]);
      default:
        return drawIcon("0 0 24 24", "wu-icon", ["circle", { cx: 12, cy: 12, r: 6, fill: "currentColor" }]);
    }
  }

  /** @param {WordupView} view @param {string} id @param {string} [extra] */
  function chip(view, id, extra) {
    const info = categoryInfo(view, id);
    return h("span", { class: `wu-chip wu-c-${info.colour} ${extra || ""}` }, icon(info.icon), h("span", { text: info.label }));
  }

  /** @param {WordupView} view @param {string} pid @param {string} [extra] */
  function pawn(view, pid, extra) {
    const index = playerIndex(view, pid);
    const player = playerOf(view, pid);
    const name = player ? player.name : "";
    return h(
      "span",
      { class: `wu-pawn wu-${PAWNS[index] || "p1"} ${extra || ""}`, title: name, "aria-hidden": "true" },
      String(index + 1)
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // The board: a loop of 40 squares round an 11 x 11 grid, moving clockwise from the bottom right
  // ---------------------------------------------------------------------------------------------------

  /** @param {number} index @returns {[number, number]} the square's grid row and column */
  function gridPlace(index) {
    if (index <= 10) return [11, 11 - index]; // bottom row, right to left
    if (index <= 20) return [11 - (index - 10), 1]; // left column, bottom to top
    if (index <= 30) return [1, 1 + (index - 20)]; // top row, left to right
    return [1 + (index - 30), 11]; // right column, top to bottom
  }

  /** @param {WordupView} view @param {WordupSquare} square */
  function squareFace(view, square) {
    switch (square.kind) {
      case "question": {
        const info = categoryInfo(view, square.category);
        return [icon(info.icon)];
      }
      case "option":
        return square.categories.map((c) => h("span", { class: `wu-half wu-c-${categoryInfo(view, c).colour}` }, icon(categoryInfo(view, c).icon)));
      case "bonus":
        return [icon("star"), h("span", { class: "wu-sq-word", text: gettext("Bonus") })];
      case "lose_two":
        return [h("span", { class: "wu-sq-big", text: "\u22122" }), h("span", { class: "wu-sq-word", text: gettext("Lose") })];
      case "free_two":
        return [h("span", { class: "wu-sq-big", text: "+2" }), h("span", { class: "wu-sq-word", text: gettext("Free") })];
      case "stop":
        return [icon("stop"), h("span", { class: "wu-sq-word", text: gettext("Stop") })];
      case "word_up":
        return [h("span", { class: "wu-sq-wordup", text: "W!" })];
      default:
        return [];
    }
  }

  /** @param {WordupView} view @param {WordupSquare} square */
  function squareClass(view, square) {
    const base = `wu-square wu-k-${square.kind}`;
    if (square.kind === "question") return `${base} wu-c-${categoryInfo(view, square.category).colour}`;
    return base + (square.index % 10 === 0 ? " wu-corner" : "");
  }

  /** Pawns sharing a square get smaller so all of them fit in it (six on the start square). @param {number} count */
  function pawnCrowd(count) {
    return count > 4 ? " wu-pawns-6" : count > 2 ? " wu-pawns-4" : "";
  }

  /** @param {WordupView} view @param {WordupViewer} ctx @param {any} centre what the middle shows */
  function drawBoard(view, ctx, centre) {
    const board = h("div", { class: "wu-board", role: "img", "aria-label": boardSummary(view, ctx) });
    const lastRoll = view.last_roll;
    /** @type {Map<number, string[]>} */
    const byPos = new Map();
    for (const p of players(view)) {
      if (!byPos.has(p.position)) byPos.set(p.position, []);
      byPos.get(p.position).push(p.id);
    }
    for (const square of view.board || []) {
      const [row, col] = gridPlace(square.index);
      const here = byPos.get(square.index) || [];
      const cell = h(
        "div",
        {
          class: squareClass(view, square) + (lastRoll && lastRoll.to === square.index ? " wu-landed" : ""),
          style: `grid-row:${row};grid-column:${col}`,
          dataset: { square: square.index },
        },
        h("span", { class: "wu-face" }, squareFace(view, square)),
        h("span", { class: "wu-pawns" + pawnCrowd(here.length) }, here.map((pid) => pawn(view, pid, pid === view.turn ? "wu-moving" : "")))
      );
      board.append(cell);
    }
    board.append(h("div", { class: "wu-centre", style: "grid-row:2 / 11;grid-column:2 / 11" }, centre));
    return board;
  }

  /** @param {{dice: number[]} | null} roll */
  function dice(roll) {
    if (!roll) return null;
    return h(
      "div",
      { class: "wu-dice", "aria-hidden": "true" },
      roll.dice.map((n) => h("span", { class: `wu-die wu-die-${n}` }, Array.from({ length: n }, () => h("i"))))
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Tokens and players
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupView} view @param {WordupPlayer} p */
  function tokenCells(view, p) {
    const target = view.target || 2;
    return (view.categories || []).map((c) => {
      const info = categoryInfo(view, c.id);
      const count = (p.tokens || {})[c.id] || 0;
      const done = count >= target;
      return h(
        "td",
        { class: `wu-tokens wu-c-${info.colour}${done ? " wu-done" : ""}` },
        h(
          "span",
          { class: "wu-pips", "aria-hidden": "true" },
          Array.from({ length: Math.max(target, count) }, (_v, i) => h("i", { class: i < count ? "wu-on" : "" }))
        ),
        h("span", { class: "wu-count", text: String(count) }),
        h("span", {
          class: "visually-hidden",
          text: fmt(ngettext("%(count)s %(colour)s token", "%(count)s %(colour)s tokens", count), { count, colour: info.colourName }) + (done ? " " + gettext("(enough)") : ""),
        })
      );
    });
  }

  /** @param {WordupView} view @param {WordupViewer} ctx @param {{compact: boolean, levels: boolean}} opts */
  function playersTable(view, ctx, opts) {
    const caption = view.time_limit
      ? gettext("Tokens (most tokens when time runs out wins)")
      : fmt(ngettext("Tokens (first with %(n)s of each colour wins)", "Tokens (first with %(n)s of each colour wins)", view.target), { n: view.target });
    const head = h(
      "tr",
      null,
      h("th", { scope: "col", text: gettext("Player") }),
      (view.categories || []).map((c) => {
        const info = categoryInfo(view, c.id);
        return h("th", { scope: "col", class: `wu-c-${info.colour}` }, icon(info.icon), h("span", { class: opts.compact ? "visually-hidden" : "wu-th-label", text: info.label }));
      }),
      h("th", { scope: "col", text: gettext("Total") }),
      opts.levels ? h("th", { scope: "col", text: gettext("Level") }) : null
    );
    const rows = players(view).map((p) => {
      const isTurn = p.id === view.turn && view.phase !== "over" && !view.stopped;
      const winner = view.outcome && view.outcome.winners.includes(p.id);
      return h(
        "tr",
        { class: (isTurn ? "wu-turn-row" : "") + (winner ? " wu-winner-row" : "") + (p.id === me(view, ctx) ? " wu-me-row" : "") },
        h(
          "th",
          { scope: "row" },
          pawn(view, p.id),
          h("bdi", { class: "wu-name", text: p.name }),
          p.id === me(view, ctx) ? h("span", { class: "wu-tag", text: gettext("you") }) : null,
          p.is_bot ? h("span", { class: "wu-tag", text: gettext("computer") }) : null,
          isTurn ? h("span", { class: "wu-tag wu-tag-turn", text: gettext("turn") }) : null,
          winner ? h("span", { class: "wu-tag wu-tag-win", text: gettext("winner") }) : null,
          opts.compact ? null : h("span", { class: "wu-where", text: squareName(view, p.position) })
        ),
        tokenCells(view, p),
        h("td", { class: "wu-total", text: String(p.total) }),
        opts.levels ? h("td", { text: String((view.levels || {})[p.id] || "") }) : null
      );
    });
    return h("div", { class: "wu-players-box" }, h("table", { class: "wu-players" }, h("caption", { text: caption }), h("thead", null, head), h("tbody", null, rows)));
  }

  /** @param {WordupView} view @param {WordupViewer} ctx */
  function logList(view, ctx) {
    const lines = (view.log || []).map((e) => eventText(view, ctx, e)).filter(Boolean).slice(-LOG_SHOWN).reverse();
    return h(
      "section",
      { class: "wu-log", "aria-label": gettext("What happened") },
      h("h3", { text: gettext("What happened") }),
      h("ol", null, lines.map((line) => h("li", { text: line })))
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Cards, the question on show (public part only) and the last answer
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupView} view @param {WordupCard | null | undefined} card */
  function cardFace(view, card) {
    if (!card) return null;
    const info = card.category ? categoryInfo(view, card.category) : null;
    return h(
      "div",
      { class: "wu-card" + (info ? ` wu-card-${info.colour}` : "") },
      h("div", { class: "wu-card-title" }, icon("card"), h("span", { text: gettext("Word Up!") })),
      info ? chip(view, card.category) : null,
      h("p", { text: cardText(view, card) })
    );
  }

  /** @param {string} prompt */
  function promptWithGap(prompt) {
    const parts = String(prompt || "").split(/_{2,}/);
    /** @type {any[]} */
    const out = [];
    parts.forEach((part, i) => {
      // (A span cannot carry a label: screen readers read the hidden word instead.)
      if (i) out.push(h("span", { class: "wu-gap" }, h("span", { class: "visually-hidden", text: gettext("(gap)") }), "\u2002".repeat(4)));
      out.push(part);
    });
    return out;
  }

  /** The question on show. `mine`: the viewer answers it (no "only you hear" note); `choices`: the
   *  multiple choice's options are buttons in `extra`, not a list.
   *  @param {WordupView} view @param {WordupViewer} ctx @param {WordupQuestion} q
   *  @param {{mine: boolean, choices?: boolean, extra?: any}} opts */
  function questionCard(view, ctx, q, opts) {
    const info = categoryInfo(view, q.category);
    const reward = q.reward > 1 ? h("span", { class: "wu-reward", text: fmt(gettext("for %(n)s tokens"), { n: q.reward }) }) : null;
    const forWhom = q.mode === "ask_left" ? h("p", { class: "wu-note", text: askLeftNote(view, ctx, q) }) : null;
    const body = [];
    if (q.category === "missing_word") {
      body.push(h("p", { class: "wu-prompt", ...ENGLISH }, promptWithGap(q.prompt)));
      body.push(h("p", { class: "wu-hint", text: fmt(ngettext("The missing word has %(n)s letter.", "The missing word has %(n)s letters.", q.letters), { n: q.letters }) }));
    } else if (q.category === "crossword") {
      body.push(h("p", { class: "wu-prompt", ...ENGLISH, text: q.prompt }));
      body.push(h("p", { class: "wu-hint" }, gettext("It starts with "), h("strong", { class: "wu-letter", text: String(q.first_letter || "").toUpperCase() })));
    } else if (q.category === "multiple_choice") {
      body.push(h("p", { class: "wu-prompt", ...ENGLISH, text: q.prompt }));
      if (!opts.choices) {
        body.push(h("ol", { class: "wu-choice-list", type: "A", ...ENGLISH }, (q.choices || []).map((c) => h("li", { text: c }))));
      }
    } else {
      body.push(h("p", { class: "wu-prompt wu-listen" }, icon("ear"), h("span", { text: spellingInstruction(q.prompt) })));
      if (!opts.mine) body.push(h("p", { class: "wu-hint", text: isMe(view, ctx, q.player) ? gettext("Only you hear the word.") : fmt(gettext("Only %(name)s hears the word."), { name: who(view, ctx, q.player) }) }));
    }
    return h(
      "section",
      { class: `wu-question wu-c-${info.colour}`, "aria-label": gettext("The question") },
      h("header", null, chip(view, q.category), reward),
      forWhom,
      body,
      opts.extra || null
    );
  }

  /** What the answerer gave, as shown. @param {WordupResult} result */
  function givenAnswer(result) {
    if (result.response === null || result.response === undefined) return gettext("(no answer)");
    if (result.choice !== null && result.choice !== undefined) return (result.question.choices || [])[result.choice] || result.response;
    return result.response;
  }

  /** The last answer, its mark and the right answer; `brief`: one line (while the viewer has a move to
   *  make). A spelling word, public now, can be heard again (data-action "hear").
   *  @param {WordupView} view @param {WordupViewer} ctx @param {WordupResult} result @param {{brief?: boolean}} [opts] */
  function resultPanel(view, ctx, result, opts) {
    const answered = givenAnswer(result);
    const right = rightAnswers(result);
    const verdict = result.correct
      ? result.teacher_marked
        ? gettext("Accepted by the teacher")
        : gettext("Right!")
      : result.open
        ? gettext("Not right")
        : gettext("Wrong");
    const heading = h("header", null, chip(view, result.category), h("strong", { class: "wu-verdict " + (result.correct ? "wu-right" : "wu-wrong"), text: verdict }));
    const hear =
      result.category === "spelling" && result.word && ctx.role !== "replay" && ctx.role !== "projector"
        ? h("button", { type: "button", class: "secondary wu-hear", "data-fk": "hear", "data-action": "hear", text: gettext("Hear the word") })
        : null;
    if (opts && opts.brief) {
      heading.append(h("span", { class: "wu-brief-answer", text: fmt(gettext("The answer: %(answer)s"), { answer: right.join(", ") }) }));
      if (hear) heading.append(hear);
      return h("section", { class: "wu-result wu-result-brief " + (result.correct ? "wu-result-right" : "wu-result-wrong"), "aria-label": gettext("The last answer") }, heading);
    }
    const kids = [
      heading,
      result.category === "spelling"
        ? h("p", { class: "wu-prompt", ...ENGLISH, text: result.sentence || "" })
        : h("p", { class: "wu-prompt", ...ENGLISH }, result.category === "missing_word" ? promptWithGap(result.question.prompt) : result.question.prompt),
      h(
        "dl",
        { class: "wu-answers" },
        h("dt", { text: answeredLabel(view, ctx, result.player) }),
        h("dd", { class: "wu-given", text: answered }),
        h("dt", { text: ngettext("The answer", "Right answers", right.length) }),
        h("dd", { class: "wu-right-answer", text: right.join(", ") }),
        result.alternatives && result.alternatives.length ? [h("dt", { text: gettext("Also accepted") }), h("dd", { text: result.alternatives.join(", ") })] : null
      ),
    ];
    if (hear) kids.push(hear);
    return h("section", { class: "wu-result " + (result.correct ? "wu-result-right" : "wu-result-wrong"), "aria-label": gettext("The answer") }, kids);
  }

  // ---------------------------------------------------------------------------------------------------
  // Move buttons: each carries the move it sends (data-move) and its key (data-key)
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupView} view @param {string} label @param {string} focus its focus key
   *  @param {object} move @param {string | null} colourId @param {number | null} index */
  function optionButton(view, label, focus, move, colourId, index) {
    const info = colourId ? categoryInfo(view, colourId) : null;
    return h(
      "button",
      { type: "button", class: "wu-option" + (info ? ` wu-c-${info.colour}` : " secondary"), "data-fk": focus, "data-key": index, "data-move": JSON.stringify(move) },
      index ? h("kbd", { "aria-hidden": "true", text: String(index) }) : null,
      info ? icon(info.icon) : null,
      h("span", { text: label })
    );
  }

  /** @param {WordupView} view @param {string} label @param {WordupAction} action @param {string} focus
   *  @param {number | null} index */
  function pairButton(view, label, action, focus, index) {
    return h(
      "button",
      { type: "button", class: "wu-option secondary wu-pair", "data-fk": focus, "data-key": index, "data-move": JSON.stringify(action) },
      index ? h("kbd", { "aria-hidden": "true", text: String(index) }) : null,
      action.categories.map((c) => h("span", { class: `wu-swatch wu-c-${categoryInfo(view, c).colour}` }, icon(categoryInfo(view, c).icon))),
      h("span", { text: label })
    );
  }

  Object.assign(pieces, {
    ENGLISH,
    icon,
    chip,
    gridPlace,
    drawBoard,
    dice,
    playersTable,
    logList,
    cardFace,
    questionCard,
    givenAnswer,
    resultPanel,
    optionButton,
    pairButton,
  });
})();
