/* Word Up's view: the whole screen for one viewer, from the view message, the viewer and their input in
 * progress (a WordupScene), in one of four layouts:
 *   role "player"     the student's device: the board, whose turn it is, and what this student may do now
 *                     (roll, choose a colour, answer, play a Word Up card, give back or take tokens);
 *   role "teacher"    compact on the console: one small card per board (players, tokens, what is happening,
 *                     and the Accept button while a refused answer is on show); full board otherwise;
 *   role "projector"  large: the board with every pawn, the question on show in the middle, every player's
 *                     tokens by colour. No levels, no answers before the reveal, never the spelling word;
 *   role "replay"     the full board of one step, without moves, sound or clock.
 *
 * Everything drawn comes from the view the server sent (deny-by-default). Moves offered are exactly the
 * view's `actions`; whether an answer is right is never computed here. Pure: common.js morphs what `view`
 * returns into the table's root, and input.js acts on the data-* attributes (docs/frontend.md).
 */

/**
 * What one draw shows: the message's view (stopped once the table is over), the viewer, and their input.
 * @typedef {object} WordupScene
 * @property {WordupView} view
 * @property {GameContext} ctx
 * @property {WordupInputState} state
 * @property {string} uid a prefix for the page's unique ids
 * @property {number} tableId
 * @property {string} step the step of the game a move or a refusal belongs to (phase, turn, question)
 */

(function () {
  "use strict";

  const { h, gettext } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("wordup");
  const { fmt, categoryInfo, playerOf, me, who, statusLine, stoppedLine, outcomeLine, levelName, rollLine } = pieces;
  const { ENGLISH, icon, chip, drawBoard, dice, playersTable, logList, cardFace, questionCard, givenAnswer } = pieces;
  const { resultPanel, optionButton, pairButton, rightAnswers } = pieces;

  const MAX_ANSWER = 100;

  /** @param {WordupView} view */
  const stepKey = (view) => [view.phase, view.turn, view.question ? view.question.serial : ""].join("|");

  /** @param {WordupView} view @param {string} type @returns {WordupAction[]} */
  function actionsOf(view, type) {
    return (view.actions || []).filter((a) => a.type === type);
  }

  /** While a move is on its way, nothing in its panel can be pressed again. @param {Element} panel */
  function disableAll(panel) {
    panel.querySelectorAll("button, input, select").forEach((el) => el.setAttribute("disabled", ""));
  }

  /** The server's reason for the last refused move of this step (kept until the step changes).
   *  @param {WordupScene} scene */
  function problemLine(scene) {
    const problem = scene.state.problem;
    return h("p", { class: "wu-problem", role: "alert", text: problem && problem.step === scene.step ? problem.message : "" });
  }

  // ---------------------------------------------------------------------------------------------------
  // Moves (the student's device; the teacher's accept)
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupScene} scene */
  function movePanel(scene) {
    const { view, ctx } = scene;
    const panel = h("section", { class: "wu-move", "aria-label": gettext("Your move") });
    const phase = view.phase;
    const pending = view.pending || {};
    const row = h("div", { class: "wu-options" });
    let n = 0;
    const next = () => (++n <= 9 ? n : null);

    if (phase === "roll" && actionsOf(view, "roll").length) {
      panel.append(
        h("button", { type: "button", class: "big wu-roll", "data-fk": "roll", "data-key": "r", "data-move": JSON.stringify({ type: "roll" }) }, h("kbd", { "aria-hidden": "true", text: "R" }), gettext("Roll the dice"))
      );
    } else if (phase === "choose_category") {
      const answerer = pending.answerer && pending.answerer !== me(view, ctx) ? fmt(gettext("%(name)s will answer (your Ask the player on your left card)."), { name: who(view, ctx, pending.answerer) }) : null;
      // (The line above the move already says "Choose a colour.")
      if (pending.reward > 1) panel.append(h("p", { class: "wu-note", text: gettext("A right answer wins two tokens.") }));
      if (answerer) panel.append(h("p", { class: "wu-note", text: answerer }));
      for (const action of actionsOf(view, "choose")) {
        const p = playerOf(view, me(view, ctx));
        const have = p ? p.tokens[action.category] || 0 : 0;
        const need = Math.max(0, (view.target || 2) - have);
        const label = `${categoryInfo(view, action.category).label} · ${need ? fmt(gettext("you need %(n)s"), { n: need }) : gettext("you have enough")}`;
        row.append(optionButton(view, label, "choose-" + action.category, action, action.category, next()));
      }
      panel.append(row);
    } else if (phase === "answer" && view.question) {
      panel.append(answerForm(scene));
    } else if (phase === "card_choice") {
      panel.append(cardFace(view, pending.card));
      panel.append(cardChoices(scene, next));
    } else if (phase === "discard") {
      row.classList.add("wu-pairs");
      panel.append(h("p", { class: "wu-note", text: gettext("Spares (more than you need) are the best ones to give back.") }));
      for (const action of actionsOf(view, "discard")) {
        const [a, b] = action.categories;
        const label = a === b ? fmt(gettext("Two %(colour)s"), { colour: categoryInfo(view, a).colourName }) : fmt(gettext("%(first)s and %(second)s"), { first: categoryInfo(view, a).colourName, second: categoryInfo(view, b).colourName });
        row.append(pairButton(view, label, action, "discard-" + a + "-" + b, next()));
      }
      panel.append(row);
    } else if (phase === "free_tokens") {
      row.classList.add("wu-pairs");
      for (const action of actionsOf(view, "take")) {
        const [a, b] = action.categories;
        const label = fmt(gettext("%(first)s and %(second)s"), { first: categoryInfo(view, a).colourName, second: categoryInfo(view, b).colourName });
        row.append(pairButton(view, label, action, "take-" + a + "-" + b, next()));
      }
      panel.append(row);
    } else {
      return null;
    }
    if (scene.state.pending) disableAll(panel);
    panel.append(problemLine(scene));
    return panel;
  }

  /** @param {WordupScene} scene @param {() => number | null} next */
  function cardChoices(scene, next) {
    const view = scene.view;
    const card = (view.pending || {}).card || /** @type {WordupCard} */ ({});
    const box = h("div", { class: "wu-options" });
    const actions = actionsOf(view, "card");
    const colour = card.category ? categoryInfo(view, card.category).colourName : "";
    for (const action of actions.filter((a) => a.choice !== "lose" && a.choice !== "exchange")) {
      const labels = {
        take: fmt(gettext("Take the free %(colour)s token (and stop)"), { colour }),
        answer: fmt(gettext("Answer a %(category)s question"), { category: card.category ? categoryInfo(view, card.category).label : "" }),
        roll: gettext("Just roll again"),
        stop: gettext("Stop (end my turn)"),
      };
      const coloured = action.choice === "answer" || action.choice === "take" ? card.category : null;
      box.append(optionButton(view, labels[action.choice] || action.choice, "card-" + action.choice, action, coloured, next()));
    }
    const lose = actions.filter((a) => a.choice === "lose");
    if (lose.length) {
      const group = h("fieldset", { class: "wu-group" }, h("legend", { text: gettext("Or give back one token and roll again:") }));
      for (const action of lose) {
        // (The legend says "give back one token": each button names its colour.)
        group.append(optionButton(view, categoryInfo(view, action.category).colourName, "card-lose-" + action.category, action, action.category, next()));
      }
      box.append(group);
    }
    const swaps = actions.filter((a) => a.choice === "exchange");
    if (swaps.length) box.append(exchangeForm(scene, swaps));
    return box;
  }

  /** The swap picked so far: which player, your colour, their colour; each falls back to the first one
   *  on offer when the pick before it changed what is possible.
   *  @param {WordupInputState} state @param {WordupAction[]} swaps */
  function exchangePicks(state, swaps) {
    const picked = state.exchange || { with: null, give: null, take: null };
    const pick = (/** @type {string[]} */ values, /** @type {string | null} */ wanted) => (wanted && values.includes(wanted) ? wanted : values[0]);
    const others = [...new Set(swaps.map((a) => a.with))];
    const other = pick(others, picked.with);
    const gives = [...new Set(swaps.filter((a) => a.with === other).map((a) => a.give))];
    const give = pick(gives, picked.give);
    const takes = swaps.filter((a) => a.with === other && a.give === give).map((a) => a.take);
    const take = pick(takes, picked.take);
    return { others, other, gives, give, takes, take };
  }

  /** Exchange: three linked choices (which player, your colour, their colour), then Swap.
   *  @param {WordupScene} scene @param {WordupAction[]} swaps */
  function exchangeForm(scene, swaps) {
    const { view, ctx } = scene;
    const picks = exchangePicks(scene.state, swaps);
    /** @param {string} name @param {string} label @param {string[]} values @param {string} chosen @param {(v: string) => string} text */
    const select = (name, label, values, chosen, text) =>
      h("label", null, h("span", { text: label }), h("select", { name, "data-fk": "ex-" + name }, values.map((v) => h("option", { value: v, selected: v === chosen, text: text(v) }))));
    const colour = (/** @type {string} */ c) => categoryInfo(view, c).colourName;
    return h(
      "form",
      { class: "wu-exchange", "data-form": "exchange" },
      h(
        "fieldset",
        { class: "wu-group" },
        h("legend", { text: gettext("Or swap a token, then roll again:") }),
        select("with", gettext("Swap with"), picks.others, picks.other, (pid) => who(view, ctx, pid)),
        h("span", null, select("give", gettext("Your token to give"), picks.gives, picks.give, colour)),
        h("span", null, select("take", gettext("Their token to take"), picks.takes, picks.take, colour)),
        h("button", { type: "submit", "data-fk": "ex-go", text: gettext("Swap and roll again") })
      )
    );
  }

  /** @param {WordupScene} scene */
  function answerForm(scene) {
    const { view, ctx, state, uid } = scene;
    const q = view.question;
    if (q.category === "multiple_choice") {
      const list = h("div", { class: "wu-options wu-mc" });
      (q.choices || []).forEach((choice, index) => list.append(optionButton(view, choice, "mc-" + index, { type: "answer", choice: index }, null, index + 1)));
      return questionCard(view, ctx, q, { mine: true, choices: true, extra: list });
    }
    const typed = state.typed[q.serial] || "";
    const input = h("input", {
      type: "text",
      ...ENGLISH,
      id: `${uid}-answer`,
      class: "wu-input",
      name: "answer",
      value: typed,
      maxlength: MAX_ANSWER,
      autocomplete: "off",
      autocapitalize: "none",
      autocorrect: "off",
      spellcheck: "false",
      enterkeyhint: "send",
      "data-fk": "answer",
      "data-serial": q.serial,
      "aria-describedby": `${uid}-answer-help`,
    });
    const letters = typed.replace(/[\s\-\u2010-\u2015]/g, "").length;
    const counter = h("span", { class: "wu-counter", "aria-hidden": "true", text: q.letters ? fmt(gettext("%(typed)s of %(n)s letters"), { typed: letters, n: q.letters }) : "" });
    const help =
      q.category === "spelling"
        ? gettext("One try: check your spelling before you send. Capitals and hyphens don't matter.")
        : gettext("Type the word. Capitals and hyphens don't matter.");
    const form = h(
      "form",
      { class: "wu-answer-form", autocomplete: "off", "data-form": "answer" },
      h("label", { for: input.id, class: "wu-label", text: q.category === "spelling" ? gettext("Type the word you heard") : gettext("Your answer") }),
      h("div", { class: "wu-input-row" }, input, h("button", { type: "submit", class: "wu-send", "data-fk": "send", text: gettext("Send") })),
      h("p", { class: "wu-help", id: `${uid}-answer-help` }, help, " ", counter)
    );
    const extra = [form];
    if (q.category === "spelling") extra.unshift(listenControls(scene, q));
    return questionCard(view, ctx, q, { mine: true, extra });
  }

  /** "Say it again" and "Just the word" (input.js plays them), and how the sound went.
   *  @param {WordupScene} scene @param {WordupQuestion} q */
  function listenControls(scene, q) {
    const sound = scene.state.sound;
    return h(
      "div",
      { class: "wu-listen-box", "data-serial": q.serial },
      h("button", { type: "button", class: "wu-say", "data-fk": "say", "data-key": "l", "data-action": "say" }, icon("ear"), h("span", { text: gettext("Say it again") }), h("kbd", { "aria-hidden": "true", text: "L" })),
      h("button", { type: "button", class: "secondary wu-say-word", "data-fk": "say-word", "data-action": "say-word" }, gettext("Just the word")),
      h("p", { class: "wu-sound-state", role: "status", text: sound && sound.serial === q.serial ? sound.text : "" })
    );
  }

  /** @param {WordupScene} scene @param {WordupResult} result */
  function teacherAccept(scene, result) {
    const { view, ctx } = scene;
    const accept = actionsOf(view, "accept")[0];
    if (!accept || !result || !result.open) return null;
    const panel = h(
      "div",
      { class: "wu-accept" },
      h("button", {
        type: "button",
        class: "wu-accept-button",
        "data-fk": "accept",
        "data-move": JSON.stringify(accept),
        text: fmt(gettext("Accept %(name)s's answer"), { name: who(view, ctx, result.player) }),
      })
    );
    if (scene.state.pending) disableAll(panel);
    panel.append(problemLine(scene));
    return panel;
  }

  // ---------------------------------------------------------------------------------------------------
  // Layouts
  // ---------------------------------------------------------------------------------------------------

  /** The step's countdown on the student's device (the console and projector cards show it in their
   *  header), and the game clock of the timed variant everywhere; input.js starts them (data-clock).
   *  @param {WordupScene} scene */
  function clocks(scene) {
    const { view, ctx } = scene;
    const boxes = [];
    const add = (/** @type {string} */ kind, /** @type {string} */ label, /** @type {string} */ aria) => {
      const clock = h("span", { class: "wu-clock", role: "timer", "aria-label": aria, "data-clock": kind });
      boxes.push(h("span", { class: "wu-clock-box" }, h("span", { class: "wu-clock-label", text: label }), clock));
    };
    if (ctx.role === "player") add("step", gettext("This step"), gettext("Time left for this step"));
    if (view.time_limit) add("game", gettext("Game time"), gettext("Time left in the game"));
    return boxes.length ? h("span", { class: "wu-clocks" }, boxes) : null;
  }

  /** The middle of the board: the last roll, what is happening, the pile of cards. @param {WordupScene} scene */
  function centre(scene) {
    const { view, ctx } = scene;
    const bits = [];
    const lastRoll = view.last_roll;
    if (lastRoll) bits.push(h("div", { class: "wu-roll-line" }, dice(lastRoll), h("span", { text: rollLine(view, ctx, lastRoll) })));
    if (view.stopped) bits.push(h("p", { class: "wu-over", text: stoppedLine(view, ctx) }));
    else if (view.phase === "over") bits.push(h("p", { class: "wu-over", text: outcomeLine(view, ctx) }));
    else bits.push(h("p", { class: "wu-status", text: statusLine(view, ctx) }));
    bits.push(h("p", { class: "wu-deck", text: fmt(gettext("Word Up cards: %(n)s"), { n: view.deck_size }) }));
    return bits;
  }

  /** @param {WordupScene} scene */
  function stoppedPanel(scene) {
    return h("section", { class: "wu-ended", "aria-label": gettext("The end of the game") }, h("p", { class: "wu-ended-line", text: stoppedLine(scene.view, scene.ctx) }));
  }

  /** The projector's panel: the question on show (public part), the reveal, or the card being played.
   *  @param {WordupScene} scene */
  function showPanel(scene) {
    const { view, ctx } = scene;
    if (view.stopped) return stoppedPanel(scene);
    if (view.question && view.phase === "answer") return questionCard(view, ctx, view.question, { mine: false });
    if (view.last_result && view.phase !== "answer") return resultPanel(view, ctx, view.last_result);
    if (view.phase === "card_choice" && view.pending && view.pending.card) return cardFace(view, view.pending.card);
    return null;
  }

  /** @param {WordupScene} scene */
  function sidePanel(scene) {
    const { view, ctx } = scene;
    if (view.stopped) return [stoppedPanel(scene)];
    const bits = [];
    const mine = (view.actions || []).length > 0 && ctx.role === "player";
    const move = mine ? movePanel(scene) : null;
    if (move) bits.push(move);
    else if (view.phase === "answer" && view.question) bits.push(questionCard(view, ctx, view.question, { mine: false }));
    else if (view.phase === "card_choice" && view.pending && view.pending.card) bits.push(cardFace(view, view.pending.card));
    if (view.last_result && view.phase !== "answer") {
      // While the student has a move to make, the last answer shrinks to one line so the move fits.
      bits.push(resultPanel(view, ctx, view.last_result, { brief: !!move && view.phase !== "reveal" }));
      if (ctx.role === "teacher") bits.push(teacherAccept(scene, view.last_result));
    }
    return bits;
  }

  /** @param {WordupScene} scene */
  function compactLayout(scene) {
    const { view, ctx } = scene;
    const result = view.last_result;
    const q = view.question;
    return h(
      "div",
      { class: "wu-compact wu-root" },
      h("div", { class: "wu-compact-head" }, h("p", { class: "wu-status", text: statusLine(view, ctx) }), clocks(scene)),
      q && view.phase === "answer" && !view.stopped ? h("p", { class: "wu-compact-q" }, chip(view, q.category), " ", q.category === "spelling" ? gettext("(heard)") : q.prompt) : null,
      result && view.phase === "reveal" && !view.stopped
        ? h(
            "div",
            { class: "wu-compact-reveal" },
            h("p", null, chip(view, result.category), " ", fmt(gettext("%(name)s typed “%(given)s”; the answer: %(answer)s"), {
              name: who(view, ctx, result.player),
              given: givenAnswer(result),
              answer: rightAnswers(result).join(", "),
            })),
            teacherAccept(scene, result)
          )
        : null,
      playersTable(view, ctx, { compact: true, levels: !!view.levels })
    );
  }

  /** @param {WordupScene} scene */
  function boardLayout(scene) {
    const { view, ctx } = scene;
    const role = ctx.role;
    const large = role === "projector";
    const header = h(
      "div",
      { class: "wu-head" },
      h("p", { class: "wu-status", text: statusLine(view, ctx) }),
      view.you ? h("span", { class: "wu-level", text: fmt(gettext("Your level: %(name)s"), { name: levelName(view.you.level) }) }) : null,
      clocks(scene)
    );
    // Areas, placed by the stylesheet: on a wide card the board on the left and everything else beside
    // it; on a narrow one (a portrait tablet) what is happening and the move first, then the board.
    return h(
      "div",
      { class: `wu-screen wu-role-${role}` + (large ? " wu-large" : "") + " wu-root" },
      h(
        "div",
        { class: "wu-layout" },
        // (The projector's board says what is happening in its middle; only a game clock goes beside it.)
        large ? (view.time_limit ? h("div", { class: "wu-head-area" }, clocks(scene)) : null) : h("div", { class: "wu-head-area" }, header),
        h("div", { class: "wu-board-area" }, drawBoard(view, ctx, centre(scene))),
        h("div", { class: "wu-side" }, large ? [showPanel(scene)] : sidePanel(scene)),
        h("div", { class: "wu-tokens-area" }, playersTable(view, ctx, { compact: false, levels: role === "teacher" && !!view.levels })),
        large ? null : h("div", { class: "wu-log-area" }, logList(view, ctx))
      )
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // The view
  // ---------------------------------------------------------------------------------------------------

  /** A table the teacher ended (status "ended") or that finished: nobody may move and no clock runs,
   *  whatever phase the rules were in. @param {WordupView} view @param {string} status @returns {WordupView} */
  function stoppedView(view, status) {
    if (!status || status === "playing" || view.phase === "over") return view;
    return { ...view, actions: [], clock: {}, stopped: /** @type {"finished" | "ended"} */ (status) };
  }

  /** What one draw shows. @param {GameScreen<WordupInputState>} screen @returns {WordupScene} */
  function sceneOf(screen) {
    const { table, ctx, uid, state } = screen;
    const view = stoppedView((table && table.view) || {}, table && table.status);
    return { view, ctx, state, uid, tableId: table.table, step: stepKey(view) };
  }

  /** The screen for one viewer: the layout of their role, in one root element.
   *  @param {GameScreen<WordupInputState>} screen @returns {HTMLElement} */
  function view(screen) {
    const scene = sceneOf(screen);
    const root = scene.ctx.role === "teacher" && scene.ctx.compact ? compactLayout(scene) : boardLayout(scene);
    root.dataset.phase = scene.view.phase || "";
    root.dataset.table = String(scene.tableId);
    return root;
  }

  Object.assign(pieces, { MAX_ANSWER, stepKey, actionsOf, exchangePicks, stoppedView, sceneOf, view });
})();
