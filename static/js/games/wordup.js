/* Word Up: the game screen (docs/frontend.md is the contract, docs/games/wordup.md the rules).
 *
 * One module draws one table for one viewer:
 *   role "player"     the student's device: the board, whose turn it is, and what this student may do now
 *                     (roll, choose a colour, answer, play a Word Up card, give back or take tokens);
 *   role "teacher"    compact on the console: one small card per board (players, tokens, what is happening,
 *                     and the Accept button while a refused answer is on show); full board otherwise;
 *   role "projector"  large: the board with every pawn, the question on show in the middle, every player's
 *                     tokens by colour. No levels, no answers before the reveal, never the spelling word;
 *   role "replay"     the full board of one step, without moves, sound or clock.
 *
 * Everything drawn comes from the view the server sent (deny-by-default). Moves offered are exactly the
 * view's `actions`; whether an answer is right is never computed here.
 *
 * Spelling is heard, never read: the device of the student being asked fetches the spoken sentence and
 * word from /games/wordup/audio/<table>/<serial>/<part>/ (the server lets only that student have it) and
 * plays them; "Say it again" repeats them. After the answer the word is public, and "Hear the word" uses
 * the browser's speech synthesis when it has an English voice (else the same server audio).
 *
 * Keys on the student's device (also on the How to play page), when not typing in the answer box:
 *   R roll the dice; 1-6 press the first, second ... choice on offer (colours, answers, card options);
 *   L listen again (Spelling); Enter in the answer box sends the answer.
 */
(function () {
  "use strict";

  const GAME = "wordup";
  const AUDIO_URL = "/games/wordup/audio/";
  const LOG_SHOWN = 8;
  const MAX_ANSWER = 100;

  // The shared builders and translation shim (static/js/games/common.js, loaded first). Local names so
  // `makemessages -d djangojs` finds them; its interpolate fills named placeholders.
  const { h, icon: drawIcon, gettext, ngettext, interpolate, useCatalog, registerGame } = window.ClassplayUI;
  // A name that ends in a full stop ("Ben K.") at the end of a sentence must not make "Ben K..".
  // Word Up's words, clues and sentences are English (what it teaches): marked so, and left to right on an
  // Arabic page too; the instructions around them are in the device's language (docs/games/wordup.md).
  const ENGLISH = { lang: "en", dir: "ltr" };
  // (On an Arabic page the name is isolated: "Ben K.\u2069." is the same slip.)
  const fmt = (text, values) => interpolate(text, values).replace(/(?<!\.)\.(\u2069?)\.(?!\.)/g, ".$1");

  // ---------------------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------------------

  /** The category's symbol, so a colour is never the only cue (colour-blind students). */
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

  // Category names and colours, translated here (the view carries the English label).
  const CATEGORY_LABELS = () => ({
    missing_word: gettext("Missing Word"),
    crossword: gettext("Crossword Clues"),
    multiple_choice: gettext("Multiple Choice"),
    spelling: gettext("Spelling"),
  });
  const COLOUR_NAMES = () => ({
    orange: gettext("orange"),
    green: gettext("green"),
    blue: gettext("blue"),
    yellow: gettext("yellow"),
  });

  function categoryInfo(view, id) {
    const info = (view.categories || []).find((c) => c.id === id) || { id, colour: "", icon: "" };
    return {
      id,
      colour: info.colour,
      icon: info.icon,
      label: CATEGORY_LABELS()[id] || info.label || id,
      colourName: COLOUR_NAMES()[info.colour] || info.colour,
    };
  }

  /** "orange Missing Word": colour and name together, as everywhere on screen. */
  function categoryName(view, id) {
    const info = categoryInfo(view, id);
    return fmt(gettext("%(colour)s (%(category)s)"), { colour: info.colourName, category: info.label });
  }

  function chip(view, id, extra) {
    const info = categoryInfo(view, id);
    return h("span", { class: `wu-chip wu-c-${info.colour} ${extra || ""}` }, icon(info.icon), h("span", { text: info.label }));
  }

  const SQUARE_NAMES = () => ({
    bonus: gettext("Bonus"),
    lose_two: gettext("Lose two tokens"),
    free_two: gettext("Two free tokens"),
    stop: gettext("Stop"),
    word_up: gettext("Word Up!"),
    option: gettext("Option"),
  });

  function squareName(view, index) {
    const square = (view.board || [])[index];
    if (!square) return "";
    if (square.kind === "question") return categoryName(view, square.category);
    if (square.kind === "option") {
      const [a, b] = square.categories.map((c) => categoryInfo(view, c).colourName);
      return fmt(gettext("Option: %(first)s or %(second)s"), { first: a, second: b });
    }
    return SQUARE_NAMES()[square.kind] || square.kind;
  }

  const PAWNS = ["p1", "p2", "p3", "p4", "p5", "p6"];

  function players(view) {
    return view.players || [];
  }
  function playerIndex(view, pid) {
    return players(view).findIndex((p) => p.id === pid);
  }
  function playerOf(view, pid) {
    return players(view).find((p) => p.id === pid);
  }
  function me(view, ctx) {
    return (view.you && view.you.id) || (ctx.role === "player" ? ctx.player : null);
  }
  /** Whether ``pid`` is the viewer (sentences about the viewer have their own wording: "your answer",
   *  "you start", never "You's answer" or "You starts"). */
  function isMe(view, ctx, pid) {
    return !!pid && pid === me(view, ctx);
  }
  /** The player's name. Never "You": a sentence about the viewer has its own wording ("You rolled 7",
   *  never "%(name)s rolled 7" given "You"), which other languages conjugate ("Sacaste 7"). */
  function who(view, ctx, pid) {
    const player = playerOf(view, pid);
    return player ? player.name : gettext("Someone");
  }

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

  function focusKey(el) {
    const active = document.activeElement;
    if (!active || !el.contains(active)) return null;
    return active.dataset && active.dataset.focus ? active.dataset.focus : null;
  }

  // ---------------------------------------------------------------------------------------------------
  // Per-table memory (survives re-renders): typed answers, played audio, what was announced
  // ---------------------------------------------------------------------------------------------------

  const memory = new Map();
  function tableMemory(id) {
    if (!memory.has(id)) memory.set(id, { typed: {}, played: new Set(), audio: {}, announced: "", selection: [] });
    return memory.get(id);
  }

  // ---------------------------------------------------------------------------------------------------
  // Sound
  // ---------------------------------------------------------------------------------------------------

  /** The spoken parts of a question (object URLs of the server's audio), fetched once per question. */
  async function fetchAudio(tableId, serial, mem) {
    const key = String(serial);
    if (mem.audio[key]) return mem.audio[key];
    const parts = {};
    for (const part of ["sentence", "word"]) {
      const response = await fetch(`${AUDIO_URL}${tableId}/${serial}/${part}/`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) {
        const error = new Error("audio " + response.status);
        error.status = response.status;
        throw error;
      }
      parts[part] = URL.createObjectURL(await response.blob());
    }
    for (const old of Object.keys(mem.audio)) {
      if (old !== key) {
        Object.values(mem.audio[old]).forEach((url) => URL.revokeObjectURL(url));
        delete mem.audio[old];
      }
    }
    mem.audio[key] = parts;
    return parts;
  }

  let player = null; // one <audio> for the page: a new sound stops the last one
  function playUrls(urls) {
    if (!player) player = new Audio();
    return urls.reduce(
      (chain, url) =>
        chain.then(
          () =>
            new Promise((resolve, reject) => {
              player.onended = () => resolve();
              player.onerror = () => reject(new Error("audio"));
              player.src = url;
              const started = player.play();
              if (started && started.catch) started.catch(reject);
            })
        ),
      Promise.resolve()
    );
  }

  function englishVoice() {
    if (!("speechSynthesis" in window)) return null;
    const voices = window.speechSynthesis.getVoices() || [];
    return voices.find((v) => /^en(-|_|$)/i.test(v.lang) && v.localService) || voices.find((v) => /^en/i.test(v.lang)) || null;
  }

  /** Say public text (after the answer): the browser's voice if it has an English one, else the server's. */
  function sayPublic(texts, fallback) {
    const voice = englishVoice();
    if (voice) {
      window.speechSynthesis.cancel();
      for (const text of texts) {
        const utterance = new SpeechSynthesisUtterance(text);
        utterance.voice = voice;
        utterance.lang = voice.lang;
        utterance.rate = 0.85;
        window.speechSynthesis.speak(utterance);
      }
      return Promise.resolve("browser");
    }
    return fallback();
  }

  // ---------------------------------------------------------------------------------------------------
  // The board: a loop of 40 squares round an 11 x 11 grid, moving clockwise from the bottom right
  // ---------------------------------------------------------------------------------------------------

  function gridPlace(index) {
    if (index <= 10) return [11, 11 - index]; // bottom row, right to left
    if (index <= 20) return [11 - (index - 10), 1]; // left column, bottom to top
    if (index <= 30) return [1, 1 + (index - 20)]; // top row, left to right
    return [1 + (index - 30), 11]; // right column, top to bottom
  }

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

  function squareClass(view, square) {
    const base = `wu-square wu-k-${square.kind}`;
    if (square.kind === "question") return `${base} wu-c-${categoryInfo(view, square.category).colour}`;
    return base + (square.index % 10 === 0 ? " wu-corner" : "");
  }

  /** Pawns sharing a square get smaller so all of them fit in it (six on the start square). */
  function pawnCrowd(count) {
    return count > 4 ? " wu-pawns-6" : count > 2 ? " wu-pawns-4" : "";
  }

  function drawBoard(view, ctx, centre) {
    const board = h("div", { class: "wu-board", role: "img", "aria-label": boardSummary(view, ctx) });
    const lastRoll = view.last_roll;
    const byPos = new Map();
    for (const p of players(view)) {
      if (!byPos.has(p.position)) byPos.set(p.position, []);
      byPos.get(p.position).push(p.id);
    }
    for (const square of view.board || []) {
      const [row, col] = gridPlace(square.index);
      const cell = h(
        "div",
        {
          class: squareClass(view, square) + (lastRoll && lastRoll.to === square.index ? " wu-landed" : ""),
          style: `grid-row:${row};grid-column:${col}`,
          dataset: { square: square.index },
        },
        h("span", { class: "wu-face" }, squareFace(view, square)),
        h("span", { class: "wu-pawns" + pawnCrowd((byPos.get(square.index) || []).length) }, (byPos.get(square.index) || []).map((pid) => pawn(view, pid, pid === view.turn ? "wu-moving" : "")))
      );
      board.append(cell);
    }
    board.append(h("div", { class: "wu-centre", style: "grid-row:2 / 11;grid-column:2 / 11" }, centre));
    return board;
  }

  function boardSummary(view, ctx) {
    const parts = players(view).map((p) =>
      isMe(view, ctx, p.id)
        ? fmt(gettext("you on %(square)s"), { square: squareName(view, p.position) })
        : fmt(gettext("%(name)s on %(square)s"), { name: who(view, ctx, p.id), square: squareName(view, p.position) })
    );
    return fmt(gettext("The board: %(where)s."), { where: parts.join("; ") });
  }

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

  // ---------------------------------------------------------------------------------------------------
  // What is happening (one sentence) and the log
  // ---------------------------------------------------------------------------------------------------

  function statusLine(view, ctx) {
    if (view.stopped) return stoppedLine(view, ctx);
    const pending = view.pending || {};
    const turn = who(view, ctx, view.turn);
    const mine = view.turn === me(view, ctx);
    switch (view.phase) {
      case "roll":
        return mine ? gettext("Your turn: roll the dice.") : fmt(gettext("%(name)s is rolling the dice."), { name: turn });
      case "choose_category":
        return mine ? gettext("Choose a colour.") : fmt(gettext("%(name)s is choosing a colour."), { name: turn });
      case "answer": {
        const q = view.question || {};
        const answerer = who(view, ctx, q.player);
        if (q.player === me(view, ctx)) return fmt(gettext("Your question: %(category)s."), { category: categoryName(view, q.category) });
        const info = categoryInfo(view, q.category);
        return fmt(gettext("%(name)s is answering a %(category)s question (%(colour)s)."), { name: answerer, category: info.label, colour: info.colourName });
      }
      case "reveal": {
        const answerer = who(view, ctx, pending.player);
        return pending.player === me(view, ctx) ? gettext("Not quite: here is the answer.") : fmt(gettext("%(name)s's answer was not right: here is the answer."), { name: answerer });
      }
      case "card_choice":
        return mine ? gettext("Choose what to do with your Word Up card.") : fmt(gettext("%(name)s is playing a Word Up card."), { name: turn });
      case "discard":
        return mine ? gettext("Give back two tokens.") : fmt(gettext("%(name)s is giving back two tokens."), { name: turn });
      case "free_tokens":
        return mine ? gettext("Take two free tokens of different colours.") : fmt(gettext("%(name)s is taking two free tokens."), { name: turn });
      case "over":
        return outcomeLine(view, ctx);
      default:
        return pending.chooser ? turn : "";
    }
  }

  /** The game was ended by the teacher: say so, and who had the most tokens at that moment. */
  function stoppedLine(view, ctx) {
    const ended = view.stopped !== "ended" ? gettext("The game is over.") : ctx.role === "teacher" || ctx.role === "replay" ? gettext("Ended by the teacher.") : gettext("Your teacher ended the game.");
    const ranked = players(view);
    const best = Math.max(0, ...ranked.map((p) => p.total || 0));
    if (!best) return ended;
    const leaders = ranked.filter((p) => (p.total || 0) === best).map((p) => p.id);
    const mine = leaders.includes(me(view, ctx));
    const others = leaders.filter((pid) => pid !== me(view, ctx)).map((pid) => who(view, ctx, pid)).join(gettext(" and "));
    let most;
    if (mine && others) most = fmt(ngettext("You and %(names)s had the most tokens (%(n)s).", "You and %(names)s had the most tokens (%(n)s each).", best), { names: others, n: best });
    else if (mine) most = fmt(ngettext("You had the most tokens (%(n)s).", "You had the most tokens (%(n)s).", best), { n: best });
    else most = fmt(ngettext("Most tokens: %(names)s (%(n)s).", "Most tokens: %(names)s (%(n)s).", best), { names: others, n: best });
    return ended + " " + most;
  }

  function outcomeLine(view, ctx) {
    const outcome = view.outcome;
    if (!outcome) return gettext("The game is over.");
    const names = outcome.winners.map((pid) => who(view, ctx, pid));
    const list = names.join(gettext(" and "));
    if (outcome.winners.includes(me(view, ctx))) {
      const others = outcome.winners.filter((pid) => !isMe(view, ctx, pid)).map((pid) => who(view, ctx, pid));
      return others.length ? fmt(gettext("You won, together with %(others)s!"), { others: others.join(gettext(" and ")) }) : gettext("You won!");
    }
    if (outcome.reason === "time") {
      return outcome.winners.length > 1 ? fmt(gettext("Time is up. Joint winners: %(names)s."), { names: list }) : fmt(gettext("Time is up. %(name)s wins with the most tokens."), { name: list });
    }
    return fmt(ngettext("%(name)s collected every colour and wins!", "%(name)s collected every colour and win together!", names.length), { name: list });
  }

  function eventText(view, ctx, e) {
    const name = who(view, ctx, e.player);
    const mine = isMe(view, ctx, e.player);
    switch (e.type) {
      case "first_player":
        return mine ? gettext("You rolled highest and start.") : fmt(gettext("%(name)s rolled highest and starts."), { name });
      case "roll": {
        const values = { name, total: e.total, square: squareName(view, e.to) };
        return mine ? fmt(gettext("You rolled %(total)s: %(square)s"), values) : fmt(gettext("%(name)s rolled %(total)s: %(square)s"), values);
      }
      case "category_chosen": {
        const category = categoryName(view, e.category);
        return mine ? fmt(gettext("You chose %(category)s."), { category }) : fmt(gettext("%(name)s chose %(category)s."), { name, category });
      }
      case "answered":
        return answeredText(e, name, mine);
      case "teacher_accept":
        return mine ? gettext("The teacher accepted your answer.") : fmt(gettext("The teacher accepted %(name)s's answer."), { name });
      case "card":
        return mine ? fmt(gettext("You took a Word Up card: %(card)s"), { card: cardText(view, e.card) }) : fmt(gettext("%(name)s took a Word Up card: %(card)s"), { name, card: cardText(view, e.card) });
      case "card_no_choice":
        return mine ? gettext("You had no choice to make and play on.") : fmt(gettext("%(name)s had no choice to make and plays on."), { name });
      case "move":
        return mine ? fmt(gettext("You moved to %(square)s"), { square: squareName(view, e.to) }) : fmt(gettext("%(name)s moved to %(square)s"), { name, square: squareName(view, e.to) });
      case "exchange": {
        const give = categoryInfo(view, e.give).colourName;
        const take = categoryInfo(view, e.take).colourName;
        if (isMe(view, ctx, e.with)) return fmt(gettext("%(name)s swapped tokens with you: gave you %(give)s, took your %(take)s."), { name, give, take });
        if (mine) return fmt(gettext("You swapped tokens with %(other)s: gave %(give)s, took %(take)s."), { other: who(view, ctx, e.with), give, take });
        return fmt(gettext("%(name)s swapped tokens with %(other)s: gave %(give)s, took %(take)s."), { name, other: who(view, ctx, e.with), give, take });
      }
      case "tokens":
        if (e.reason === "exchange") return null;
        if (mine) return yourTokensText(view, e);
        return e.change > 0
          ? fmt(ngettext("%(name)s won %(n)s %(colour)s token.", "%(name)s won %(n)s %(colour)s tokens.", e.change), { name, n: e.change, colour: categoryInfo(view, e.category).colourName })
          : fmt(ngettext("%(name)s gave back %(n)s %(colour)s token.", "%(name)s gave back %(n)s %(colour)s tokens.", -e.change), { name, n: -e.change, colour: categoryInfo(view, e.category).colourName });
      case "timeout":
        if (!e.player) return null;
        return mine ? gettext("Your time ran out.") : fmt(gettext("Time ran out for %(name)s."), { name });
      case "time_up":
        return gettext("Time is up!");
      case "game_over":
        return outcomeLine(view, ctx);
      default:
        return null;
    }
  }

  function answeredText(e, name, mine) {
    if (e.correct) return mine ? gettext("You answered right.") : fmt(gettext("%(name)s answered right."), { name });
    if (e.response === null) return mine ? gettext("You ran out of time.") : fmt(gettext("%(name)s ran out of time."), { name });
    return mine ? gettext("You answered wrong.") : fmt(gettext("%(name)s answered wrong."), { name });
  }

  function yourTokensText(view, e) {
    const colour = categoryInfo(view, e.category).colourName;
    return e.change > 0
      ? fmt(ngettext("You won %(n)s %(colour)s token.", "You won %(n)s %(colour)s tokens.", e.change), { n: e.change, colour })
      : fmt(ngettext("You gave back %(n)s %(colour)s token.", "You gave back %(n)s %(colour)s tokens.", -e.change), { n: -e.change, colour });
  }

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
  // Cards
  // ---------------------------------------------------------------------------------------------------

  function cardText(view, card) {
    if (!card) return "";
    const colour = card.category ? categoryInfo(view, card.category).colourName : "";
    const category = card.category ? categoryInfo(view, card.category).label : "";
    const texts = {
      any_category: gettext("Answer a question from any category. Right: win a token and roll again."),
      free_or_answer: gettext("Take one free %(colour)s token and stop, or answer a %(category)s question: right wins the token and you roll again."),
      lose_colour: gettext("Lose one %(colour)s token and stop."),
      move_to_colour: gettext("Move to the next %(colour)s square and answer for two tokens. Right: roll again."),
      exchange: gettext("Swap one of your tokens for a token of another colour from another player, then roll again; or just roll again."),
      ask_left: gettext("Ask the player on your left a question from any category. Right: they take the token and roll. Wrong: you take the token and roll again."),
      stop_or_lose: gettext("Stop, or lose one token of any colour and roll again."),
    };
    return texts[card.kind] ? fmt(texts[card.kind], { colour, category }) : card.text || "";
  }

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

  // ---------------------------------------------------------------------------------------------------
  // The question on show (public part only) and the reveal
  // ---------------------------------------------------------------------------------------------------

  function promptWithGap(prompt) {
    const parts = String(prompt || "").split(/_{2,}/);
    const out = [];
    parts.forEach((part, i) => {
      // (A span cannot carry a label: screen readers read the hidden word instead.)
      if (i) out.push(h("span", { class: "wu-gap" }, h("span", { class: "visually-hidden", text: gettext("(gap)") }), "\u2002".repeat(4)));
      out.push(part);
    });
    return out;
  }

  /** Whose Ask-the-player-on-your-left card it is, and who answers. */
  function askLeftNote(view, ctx, q) {
    if (isMe(view, ctx, q.asker)) return fmt(gettext("Your card: %(name)s answers."), { name: who(view, ctx, q.player) });
    if (isMe(view, ctx, q.player)) return fmt(gettext("%(asker)s's card: you answer."), { asker: who(view, ctx, q.asker) });
    return fmt(gettext("%(asker)s's card: %(name)s answers."), { asker: who(view, ctx, q.asker), name: who(view, ctx, q.player) });
  }

  // The engine's standard spelling instructions (games/engine/wordup/questions.py), listed here so the
  // JavaScript catalog holds them: the word is English, the instruction is in the student's language.
  const gettext_noop = (text) => text; // marks a string for the catalog (makemessages -d djangojs)
  // eslint-disable-next-line no-unused-vars -- read by makemessages, not by the screen
  const SPELLING_INSTRUCTIONS = [
    gettext_noop("Listen to the sentence and the word, then type the word."),
    gettext_noop("Spell what you hear."),
    gettext_noop("Type what you hear."),
  ];

  /** A spelling question's instruction in the device's language: one of SPELLING_INSTRUCTIONS is in the
   * catalog; a bank's own wording stays as written (the catalog does not hold it). */
  function spellingInstruction(prompt) {
    return prompt ? gettext(prompt) : gettext("Listen and spell the word.");
  }

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

  function answeredLabel(view, ctx, pid) {
    return isMe(view, ctx, pid) ? gettext("You answered") : fmt(gettext("%(name)s answered"), { name: who(view, ctx, pid) });
  }

  function resultPanel(view, ctx, result, mem, tableId, opts) {
    const answered = result.response === null || result.response === undefined ? gettext("(no answer)") : result.choice !== null && result.choice !== undefined ? (result.question.choices || [])[result.choice] || result.response : result.response;
    const right = result.category === "multiple_choice" && result.right_choices ? result.right_choices.map((i) => result.question.choices[i]) : result.answers;
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
        ? h("button", {
            type: "button",
            class: "secondary wu-hear",
            "data-focus": "hear",
            text: gettext("Hear the word"),
            onclick: () => {
              sayPublic([result.word], () => fetchAudio(tableId, result.question.serial, mem).then((parts) => playUrls([parts.word]))).catch(() => ctx.announce(gettext("The sound is not available.")));
            },
          })
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
  // Moves (the student's device; the teacher's accept)
  // ---------------------------------------------------------------------------------------------------

  /** Send a move; on refusal show the server's reason (kept across redraws until the step changes). */
  function send(ctx, action, panel) {
    panel.querySelectorAll("button, input, select").forEach((el) => (el.disabled = true));
    const mem = currentMemory.get(panel.closest(".wu-root")) || null;
    const step = mem ? mem.step : "";
    if (mem) mem.problem = null;
    const problem = panel.querySelector(".wu-problem");
    if (problem) problem.textContent = "";
    return ctx.act(action).catch((error) => {
      const message = (error && error.message) || gettext("That did not work. Try again.");
      if (mem) mem.problem = { step, message };
      // The panel may have been redrawn meanwhile: write into whichever is on screen now.
      const root = mem && mem.root && mem.root.isConnected ? mem.root : panel;
      root.querySelectorAll("button, input, select").forEach((el) => (el.disabled = false));
      const shown = root.querySelector(".wu-move .wu-problem, .wu-accept .wu-problem") || problem;
      if (shown) shown.textContent = message;
      ctx.announce(message);
    });
  }
  const currentMemory = new WeakMap();

  function actionsOf(view, type) {
    return (view.actions || []).filter((a) => a.type === type);
  }

  function optionButton(view, label, focus, onclick, colourId, index) {
    const info = colourId ? categoryInfo(view, colourId) : null;
    return h(
      "button",
      { type: "button", class: "wu-option" + (info ? ` wu-c-${info.colour}` : " secondary"), "data-focus": focus, "data-key": index, onclick },
      index ? h("kbd", { "aria-hidden": "true", text: String(index) }) : null,
      info ? icon(info.icon) : null,
      h("span", { text: label })
    );
  }

  function movePanel(view, ctx, tableId, mem) {
    const panel = h("section", { class: "wu-move", "aria-label": gettext("Your move") });
    const problem = h("p", { class: "wu-problem", role: "alert" });
    const phase = view.phase;
    const pending = view.pending || {};
    const row = h("div", { class: "wu-options" });
    let n = 0;
    const next = () => (++n <= 9 ? n : null);

    if (phase === "roll" && actionsOf(view, "roll").length) {
      panel.append(
        h("button", { type: "button", class: "big wu-roll", "data-focus": "roll", "data-key": "r", onclick: () => send(ctx, { type: "roll" }, panel) }, h("kbd", { "aria-hidden": "true", text: "R" }), gettext("Roll the dice"))
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
        row.append(optionButton(view, label, "choose-" + action.category, () => send(ctx, action, panel), action.category, next()));
      }
      panel.append(row);
    } else if (phase === "answer" && view.question) {
      panel.append(answerForm(view, ctx, tableId, mem, panel));
    } else if (phase === "card_choice") {
      panel.append(cardFace(view, pending.card));
      panel.append(cardChoices(view, ctx, panel, next));
    } else if (phase === "discard") {
      row.classList.add("wu-pairs");
      panel.append(h("p", { class: "wu-note", text: gettext("Spares (more than you need) are the best ones to give back.") }));
      for (const action of actionsOf(view, "discard")) {
        const [a, b] = action.categories;
        const label = a === b ? fmt(gettext("Two %(colour)s"), { colour: categoryInfo(view, a).colourName }) : fmt(gettext("%(first)s and %(second)s"), { first: categoryInfo(view, a).colourName, second: categoryInfo(view, b).colourName });
        row.append(pairButton(view, label, action, "discard-" + a + "-" + b, () => send(ctx, action, panel), next()));
      }
      panel.append(row);
    } else if (phase === "free_tokens") {
      row.classList.add("wu-pairs");
      for (const action of actionsOf(view, "take")) {
        const [a, b] = action.categories;
        const label = fmt(gettext("%(first)s and %(second)s"), { first: categoryInfo(view, a).colourName, second: categoryInfo(view, b).colourName });
        row.append(pairButton(view, label, action, "take-" + a + "-" + b, () => send(ctx, action, panel), next()));
      }
      panel.append(row);
    } else {
      return null;
    }
    panel.append(problem);
    return panel;
  }

  function pairButton(view, label, action, focus, onclick, index) {
    return h(
      "button",
      { type: "button", class: "wu-option secondary wu-pair", "data-focus": focus, "data-key": index, onclick },
      index ? h("kbd", { "aria-hidden": "true", text: String(index) }) : null,
      action.categories.map((c) => h("span", { class: `wu-swatch wu-c-${categoryInfo(view, c).colour}` }, icon(categoryInfo(view, c).icon))),
      h("span", { text: label })
    );
  }

  function cardChoices(view, ctx, panel, next) {
    const card = (view.pending || {}).card || {};
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
      box.append(optionButton(view, labels[action.choice] || action.choice, "card-" + action.choice, () => send(ctx, action, panel), action.choice === "answer" || action.choice === "take" ? card.category : null, next()));
    }
    const lose = actions.filter((a) => a.choice === "lose");
    if (lose.length) {
      const group = h("fieldset", { class: "wu-group" }, h("legend", { text: gettext("Or give back one token and roll again:") }));
      for (const action of lose) {
        // (The legend says "give back one token": each button names its colour.)
        group.append(optionButton(view, categoryInfo(view, action.category).colourName, "card-lose-" + action.category, () => send(ctx, action, panel), action.category, next()));
      }
      box.append(group);
    }
    const swaps = actions.filter((a) => a.choice === "exchange");
    if (swaps.length) box.append(exchangeForm(view, ctx, swaps, panel));
    return box;
  }

  /** Exchange: three linked choices (which player, your colour, their colour), then Swap. */
  function exchangeForm(view, ctx, swaps, panel) {
    const form = h("form", { class: "wu-exchange" });
    const set = h("fieldset", { class: "wu-group" });
    form.append(set);
    const others = [...new Set(swaps.map((a) => a.with))];
    const pick = (name, label, values, text) =>
      h("label", null, h("span", { text: label }), h("select", { name, "data-focus": "ex-" + name }, values.map((v) => h("option", { value: v, text: text(v) }))));
    const withSel = pick("with", gettext("Swap with"), others, (pid) => who(view, ctx, pid));
    set.append(h("legend", { text: gettext("Or swap a token, then roll again:") }), withSel);
    const giveBox = h("span");
    const takeBox = h("span");
    set.append(giveBox, takeBox);
    const refresh = () => {
      const other = form.elements.with.value;
      const gives = [...new Set(swaps.filter((a) => a.with === other).map((a) => a.give))];
      const oldGive = form.elements.give ? form.elements.give.value : null;
      giveBox.replaceChildren(pick("give", gettext("Your token to give"), gives, (c) => categoryInfo(view, c).colourName));
      if (oldGive && gives.includes(oldGive)) form.elements.give.value = oldGive;
      const give = form.elements.give.value;
      const takes = swaps.filter((a) => a.with === other && a.give === give).map((a) => a.take);
      takeBox.replaceChildren(pick("take", gettext("Their token to take"), takes, (c) => categoryInfo(view, c).colourName));
    };
    form.addEventListener("change", (event) => {
      if (event.target.name !== "take") refresh();
    });
    refresh();
    set.append(h("button", { type: "submit", "data-focus": "ex-go", text: gettext("Swap and roll again") }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const action = swaps.find((a) => a.with === form.elements.with.value && a.give === form.elements.give.value && a.take === form.elements.take.value);
      if (action) send(ctx, action, panel);
    });
    return form;
  }

  function answerForm(view, ctx, tableId, mem, panel) {
    const q = view.question;
    const serial = q.serial;
    if (q.category === "multiple_choice") {
      const list = h("div", { class: "wu-options wu-mc" });
      (q.choices || []).forEach((choice, index) =>
        list.append(optionButton(view, choice, "mc-" + index, () => send(ctx, { type: "answer", choice: index }, panel), null, index + 1))
      );
      return questionCard(view, ctx, q, { mine: true, choices: true, extra: list });
    }
    const draftKey = `wordup:${tableId}:${serial}`;
    const saved = mem.typed[serial] !== undefined ? mem.typed[serial] : (ctx.draft && ctx.draft(draftKey)) || "";
    const input = h("input", {
      type: "text",
      ...ENGLISH,
      id: `wu-answer-${tableId}`,
      class: "wu-input",
      name: "answer",
      maxlength: MAX_ANSWER,
      autocomplete: "off",
      autocapitalize: "none",
      autocorrect: "off",
      spellcheck: "false",
      enterkeyhint: "send",
      "data-focus": "answer",
      "aria-describedby": `wu-answer-help-${tableId}`,
    });
    input.value = saved;
    const counter = h("span", { class: "wu-counter", "aria-hidden": "true" });
    const updateCounter = () => {
      const letters = input.value.replace(/[\s\-\u2010-\u2015]/g, "").length;
      counter.textContent = q.letters ? fmt(gettext("%(typed)s of %(n)s letters"), { typed: letters, n: q.letters }) : "";
    };
    input.addEventListener("input", () => {
      mem.typed[serial] = input.value;
      if (ctx.saveDraft) ctx.saveDraft(draftKey, input.value);
      updateCounter();
    });
    updateCounter();
    const help =
      q.category === "spelling"
        ? gettext("One try: check your spelling before you send. Capitals and hyphens don't matter.")
        : gettext("Type the word. Capitals and hyphens don't matter.");
    const form = h(
      "form",
      { class: "wu-answer-form", autocomplete: "off" },
      h("label", { for: input.id, class: "wu-label", text: q.category === "spelling" ? gettext("Type the word you heard") : gettext("Your answer") }),
      h("div", { class: "wu-input-row" }, input, h("button", { type: "submit", class: "wu-send", "data-focus": "send", text: gettext("Send") })),
      h("p", { class: "wu-help", id: `wu-answer-help-${tableId}` }, help, " ", counter)
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (q.category === "spelling" && !text && !window.confirm(gettext("Send an empty answer? It counts as wrong."))) return;
      send(ctx, { type: "answer", answer: text.slice(0, MAX_ANSWER) }, panel);
    });
    const extra = [form];
    if (q.category === "spelling") extra.unshift(listenControls(q, ctx, tableId, mem));
    return questionCard(view, ctx, q, { mine: true, extra });
  }

  function listenControls(q, ctx, tableId, mem) {
    const state = h("p", { class: "wu-sound-state", role: "status" });
    const play = (parts) => {
      state.textContent = gettext("Listening…");
      return fetchAudio(tableId, q.serial, mem)
        .then((urls) => playUrls(parts.map((p) => urls[p])))
        .then(() => (state.textContent = ""))
        .catch((error) => {
          if (error && error.name === "NotAllowedError") state.textContent = gettext("Tap Say it again to hear the word.");
          else if (error && error.status === 503) state.textContent = gettext("The sound is not available on this server. Ask your teacher to read the word to you.");
          else state.textContent = gettext("The sound did not play. Tap Say it again.");
        });
    };
    const box = h(
      "div",
      { class: "wu-listen-box" },
      h("button", { type: "button", class: "wu-say", "data-focus": "say", "data-key": "l", onclick: () => play(["sentence", "word"]) }, icon("ear"), h("span", { text: gettext("Say it again") }), h("kbd", { "aria-hidden": "true", text: "L" })),
      h("button", { type: "button", class: "secondary wu-say-word", "data-focus": "say-word", onclick: () => play(["word"]) }, gettext("Just the word")),
      state
    );
    if (ctx.role === "player" && !mem.played.has(q.serial)) {
      mem.played.add(q.serial);
      setTimeout(() => play(["sentence", "word"]), 0);
    }
    return box;
  }

  function teacherAccept(view, ctx, result) {
    const accept = actionsOf(view, "accept")[0];
    if (!accept || !result || !result.open) return null;
    const panel = h("div", { class: "wu-accept" });
    panel.append(
      h("button", {
        type: "button",
        class: "wu-accept-button",
        "data-focus": "accept",
        text: fmt(gettext("Accept %(name)s's answer"), { name: who(view, ctx, result.player) }),
        onclick: () => send(ctx, accept, panel).then((ack) => ack && ctx.announce(gettext("Answer accepted."))),
      }),
      h("p", { class: "wu-problem", role: "alert" })
    );
    return panel;
  }

  // ---------------------------------------------------------------------------------------------------
  // Announcements: one sentence when something the viewer should know changes
  // ---------------------------------------------------------------------------------------------------

  /** What is said when an answer is marked: right, accepted by the teacher, or refused (with the answer). */
  function resultAnnouncement(view, ctx, result) {
    const mine = isMe(view, ctx, result.player);
    const name = who(view, ctx, result.player);
    const right = result.category === "multiple_choice" && result.right_choices ? result.right_choices.map((i) => result.question.choices[i]).join(", ") : result.answers.join(", ");
    if (result.correct && result.teacher_marked) return mine ? gettext("The teacher accepted your answer.") : fmt(gettext("The teacher accepted %(name)s's answer."), { name });
    if (result.correct) return mine ? gettext("Right!") : fmt(gettext("%(name)s: right!"), { name });
    if (result.open) return mine ? fmt(gettext("Not right. The answer is %(answer)s."), { answer: right }) : fmt(gettext("%(name)s: not right. The answer is %(answer)s."), { name, answer: right });
    return null;
  }

  function announce(view, ctx, mem) {
    if (ctx.role === "replay" || ctx.role === "projector" || (ctx.role === "teacher" && ctx.compact)) return;
    const q = view.question;
    const result = view.last_result;
    const key = [view.phase, view.turn, view.stopped || "", q ? q.serial : "", result ? result.question.serial + ":" + result.correct + ":" + result.open : ""].join("|");
    if (key === mem.announced) return;
    const first = mem.announced === "";
    mem.announced = key;
    if (first && ctx.role !== "player") return;
    const parts = [];
    if (view.stopped) {
      ctx.announce(stoppedLine(view, ctx));
      return;
    }
    if (result && (!mem.lastResult || mem.lastResult !== result.question.serial + ":" + result.open + ":" + result.correct)) {
      mem.lastResult = result.question.serial + ":" + result.open + ":" + result.correct;
      const line = resultAnnouncement(view, ctx, result);
      if (line) parts.push(line);
    }
    parts.push(statusLine(view, ctx));
    ctx.announce(parts.filter(Boolean).join(" "));
  }

  // ---------------------------------------------------------------------------------------------------
  // Layouts
  // ---------------------------------------------------------------------------------------------------

  /** The step's countdown on the student's device (the console and projector cards show it in their
   *  header), and the game clock of the timed variant everywhere. */
  function clocks(view, ctx) {
    const live = ctx.role !== "replay" && view.phase !== "over" && !view.stopped;
    const boxes = [];
    const add = (label, aria, deadline) => {
      const clock = h("span", { class: "wu-clock", role: "timer", "aria-label": aria });
      if (ctx.countdown) ctx.countdown(clock, live ? deadline || null : null);
      boxes.push(h("span", { class: "wu-clock-box" }, h("span", { class: "wu-clock-label", text: label }), clock));
    };
    if (ctx.role === "player") add(gettext("This step"), gettext("Time left for this step"), (view.clock || {}).deadline);
    if (view.time_limit) add(gettext("Game time"), gettext("Time left in the game"), (view.clock || {}).game_deadline);
    return boxes.length ? h("span", { class: "wu-clocks" }, boxes) : null;
  }

  function rollLine(view, ctx, roll) {
    if (isMe(view, ctx, roll.player)) return fmt(gettext("You rolled %(total)s"), { total: roll.total });
    return fmt(gettext("%(name)s rolled %(total)s"), { name: who(view, ctx, roll.player), total: roll.total });
  }

  /** The middle of the board: the last roll, what is happening, the pile of cards. */
  function centre(view, ctx) {
    const bits = [];
    const lastRoll = view.last_roll;
    if (lastRoll) bits.push(h("div", { class: "wu-roll-line" }, dice(lastRoll), h("span", { text: rollLine(view, ctx, lastRoll) })));
    if (view.stopped) bits.push(h("p", { class: "wu-over", text: stoppedLine(view, ctx) }));
    else if (view.phase === "over") bits.push(h("p", { class: "wu-over", text: outcomeLine(view, ctx) }));
    else bits.push(h("p", { class: "wu-status", text: statusLine(view, ctx) }));
    bits.push(h("p", { class: "wu-deck", text: fmt(gettext("Word Up cards: %(n)s"), { n: view.deck_size }) }));
    return bits;
  }

  /** The projector's panel: the question on show (public part), the reveal, or the card being played. */
  function stoppedPanel(view, ctx) {
    return h("section", { class: "wu-ended", "aria-label": gettext("The end of the game") }, h("p", { class: "wu-ended-line", text: stoppedLine(view, ctx) }));
  }

  function showPanel(view, ctx, tableId, mem) {
    if (view.stopped) return stoppedPanel(view, ctx);
    if (view.question && view.phase === "answer") return questionCard(view, ctx, view.question, { mine: false });
    if (view.last_result && view.phase !== "answer") return resultPanel(view, ctx, view.last_result, mem, tableId);
    if (view.phase === "card_choice" && view.pending && view.pending.card) return cardFace(view, view.pending.card);
    return null;
  }

  function sidePanel(view, ctx, tableId, mem) {
    if (view.stopped) return [stoppedPanel(view, ctx)];
    const bits = [];
    const mine = (view.actions || []).length > 0 && ctx.role === "player";
    const move = mine ? movePanel(view, ctx, tableId, mem) : null;
    if (move) bits.push(move);
    else if (view.phase === "answer" && view.question) bits.push(questionCard(view, ctx, view.question, { mine: false }));
    else if (view.phase === "card_choice" && view.pending && view.pending.card) bits.push(cardFace(view, view.pending.card));
    if (view.last_result && view.phase !== "answer") {
      // While the student has a move to make, the last answer shrinks to one line so the move fits.
      bits.push(resultPanel(view, ctx, view.last_result, mem, tableId, { brief: !!move && view.phase !== "reveal" }));
      if (ctx.role === "teacher") bits.push(teacherAccept(view, ctx, view.last_result));
    }
    return bits;
  }

  function renderCompact(view, ctx, table, mem) {
    const result = view.last_result;
    const q = view.question;
    return h(
      "div",
      { class: "wu-compact" },
      h("div", { class: "wu-compact-head" }, h("p", { class: "wu-status", text: statusLine(view, ctx) }), clocks(view, ctx)),
      q && view.phase === "answer" && !view.stopped ? h("p", { class: "wu-compact-q" }, chip(view, q.category), " ", q.category === "spelling" ? gettext("(heard)") : q.prompt) : null,
      result && view.phase === "reveal" && !view.stopped
        ? h(
            "div",
            { class: "wu-compact-reveal" },
            h("p", null, chip(view, result.category), " ", fmt(gettext("%(name)s typed “%(given)s”; the answer: %(answer)s"), {
              name: who(view, ctx, result.player),
              given: result.response === null ? gettext("(no answer)") : result.choice !== null && result.choice !== undefined ? result.question.choices[result.choice] : result.response,
              answer: (result.category === "multiple_choice" && result.right_choices ? result.right_choices.map((i) => result.question.choices[i]) : result.answers).join(", "),
            })),
            teacherAccept(view, ctx, result)
          )
        : null,
      playersTable(view, ctx, { compact: true, levels: !!view.levels })
    );
  }

  /** A table the teacher ended (status "ended") or that finished: nobody may move and no clock runs,
   *  whatever phase the rules were in. */
  function stoppedView(view, status) {
    if (!status || status === "playing" || view.phase === "over") return view;
    return { ...view, actions: [], clock: {}, stopped: status };
  }

  function render(container, table, ctx) {
    useCatalog(ctx);
    const view = stoppedView((table && table.view) || {}, table && table.status);
    const tableId = table.table;
    const mem = tableMemory(tableId);
    const keepFocus = focusKey(container);
    const selection = document.activeElement && document.activeElement.classList && document.activeElement.classList.contains("wu-input") ? [document.activeElement.selectionStart, document.activeElement.selectionEnd] : null;
    const role = ctx.role;
    let root;
    if (role === "teacher" && ctx.compact) {
      root = renderCompact(view, ctx, table, mem);
    } else {
      const large = role === "projector";
      const header = h(
        "div",
        { class: "wu-head" },
        h("p", { class: "wu-status", text: statusLine(view, ctx) }),
        view.you ? h("span", { class: "wu-level", text: fmt(gettext("Your level: %(name)s"), { name: levelName(view.you.level) }) }) : null,
        clocks(view, ctx)
      );
      const boardArea = drawBoard(view, ctx, centre(view, ctx));
      const side = large ? [showPanel(view, ctx, tableId, mem)] : sidePanel(view, ctx, tableId, mem);
      // Areas, placed by the stylesheet: on a wide card the board on the left and everything else beside
      // it; on a narrow one (a portrait tablet) what is happening and the move first, then the board.
      root = h(
        "div",
        { class: `wu-screen wu-role-${role}` + (large ? " wu-large" : "") },
        h(
          "div",
          { class: "wu-layout" },
          // (The projector's board says what is happening in its middle; only a game clock goes beside it.)
          large ? (view.time_limit ? h("div", { class: "wu-head-area" }, clocks(view, ctx)) : null) : h("div", { class: "wu-head-area" }, header),
          h("div", { class: "wu-board-area" }, boardArea),
          h("div", { class: "wu-side" }, side),
          h("div", { class: "wu-tokens-area" }, playersTable(view, ctx, { compact: false, levels: role === "teacher" && !!view.levels })),
          large ? null : h("div", { class: "wu-log-area" }, logList(view, ctx))
        )
      );
    }
    root.classList.add("wu-root");
    mem.step = key(view);
    mem.root = root;
    currentMemory.set(root, mem);
    if (mem.problem && mem.problem.step === mem.step) {
      const shown = root.querySelector(".wu-move .wu-problem, .wu-accept .wu-problem");
      if (shown) shown.textContent = mem.problem.message;
    }
    root.dataset.phase = view.phase || "";
    root.dataset.table = tableId;
    container.replaceChildren(root);
    if (role === "projector" && container.closest(".projector-tables")) projectorRendered(root);
    else fitBoard(root);
    if (keepFocus) {
      const again = root.querySelector(`[data-focus="${keepFocus}"]`);
      if (again && !again.disabled) {
        again.focus();
        if (selection && again.setSelectionRange) again.setSelectionRange(selection[0], selection[1]);
      }
    } else if (role === "player" && view.actions && view.actions.length && mem.focusedFor !== key(view)) {
      // A new move to make: put the keyboard (and the tablet's keyboard) where it is needed.
      mem.focusedFor = key(view);
      const target = root.querySelector(".wu-input") || root.querySelector(".wu-move button:not([disabled])");
      if (target && (!document.activeElement || document.activeElement === document.body || container.contains(document.activeElement) || document.activeElement === container)) target.focus();
    }
    if (role === "player" && !keysBound) {
      keysBound = true;
      document.addEventListener("keydown", onKey);
    }
    announce(view, ctx, mem);
  }

  // ---------------------------------------------------------------------------------------------------
  // Fitting the board to the screen
  // ---------------------------------------------------------------------------------------------------

  const FIT_MARGIN = 8; // px under the board's bottom row
  const MIN_BOARD = 220; // px: smaller than this the squares cannot be read (the page then scrolls)

  /** The board is as large as the card's width allows but never taller than what is left of the window
   *  under what comes before it (the device's whole board, bottom row included, without scrolling). */
  function fitBoard(root) {
    const area = root && root.isConnected ? root.querySelector(".wu-board-area") : null;
    if (!area) return;
    const top = area.getBoundingClientRect().top + window.scrollY;
    const room = Math.floor(window.innerHeight - top - FIT_MARGIN);
    root.style.setProperty("--wu-fit", Math.max(MIN_BOARD, room) + "px");
  }

  function fitAll() {
    if (document.querySelector(".projector-tables .wu-root")) layoutProjector();
    else document.querySelectorAll(".wu-root").forEach((root) => fitBoard(root));
  }

  // The projector: every board whole and large enough to read from the back of the room. The module
  // picks how many columns the page's table cards take and how big each board is; when the boards would
  // get too small to read, it shows a page of them at a time, turning every PAGE_SECONDS (a presenter's
  // clicker, PageDown / PageUp or the arrow keys, turns it at once).
  const PAGE_SECONDS = 15;
  const projector = { page: 0, turnedAt: 0, pages: 1, timer: null, keys: false, frame: null, last: null };

  /** Arrangements of ``n`` cards in a ``width`` x ``height`` box worth trying, most boards per page
   *  first, then the largest boards: {perPage, cols, rows, board, stacked}. */
  function arrangements(n, width, height, chrome, gap, minBoard) {
    const out = [];
    for (let perPage = n; perPage >= 1; perPage -= 1) {
      const options = [];
      for (let cols = 1; cols <= perPage; cols += 1) {
        const rows = Math.ceil(perPage / cols);
        if (cols * rows - perPage >= cols) continue; // an empty row
        const cardW = (width - gap * (cols - 1)) / cols - chrome.x;
        const cardH = (height - gap * (rows - 1)) / rows - chrome.y;
        // Beside: the board, and what is happening and the tokens in the rest of the width. Stacked:
        // the board on top, the rest under it.
        options.push({ perPage, cols, rows, board: Math.floor(Math.min(cardH, cardW - 340)), stacked: false });
        options.push({ perPage, cols, rows, board: Math.floor(Math.min(cardW, cardH - 260)), stacked: true });
      }
      out.push(...options.filter((o) => o.board >= minBoard).sort((x, y) => y.board - x.board).slice(0, 3));
    }
    return out;
  }

  /** A board was redrawn on the projector: it takes the current sizes at once, and the arrangement is
   *  checked once per frame however many boards were redrawn (a whole class's moves arrive together). */
  function projectorRendered(root) {
    const last = projector.last;
    if (last) {
      root.style.setProperty("--wu-fit", last.board + "px");
      root.style.setProperty("--wu-text", textSize(last.board));
      root.classList.toggle("wu-stacked", last.stacked);
    }
    if (projector.frame) return;
    projector.frame = requestAnimationFrame(() => {
      projector.frame = null;
      layoutProjector();
    });
  }

  const textSize = (board) => Math.max(12, Math.min(26, Math.round(board / 23))) + "px";

  function layoutProjector() {
    const box = document.querySelector(".projector-tables");
    if (!box) return;
    const cards = [...box.children].filter((card) => card.classList.contains("table-card"));
    if (!cards.length) return;
    const gap = parseFloat(getComputedStyle(box).rowGap) || 16;
    const shownCard = cards.find((card) => !card.hidden) || cards[0];
    const sample = getComputedStyle(shownCard);
    const header = shownCard.querySelector(".table-header");
    const px = (value) => parseFloat(value) || 0;
    const chrome = {
      x: px(sample.paddingLeft) + px(sample.paddingRight) + px(sample.borderLeftWidth) + px(sample.borderRightWidth) + 8,
      y: px(sample.paddingTop) + px(sample.paddingBottom) + px(sample.borderTopWidth) + px(sample.borderBottomWidth) +
        (header ? header.offsetHeight + px(getComputedStyle(header).marginBottom) : 0) + 8,
    };
    const limit = window.innerHeight - 8;
    const width = box.clientWidth;
    const minBoard = Math.max(260, Math.round(window.innerHeight * 0.25)); // squares of 20 px at least
    const apply = (plan, board) => {
      const pages = Math.ceil(cards.length / plan.perPage);
      const page = projector.page % pages;
      projector.pages = pages;
      cards.forEach((card, i) => {
        card.hidden = Math.floor(i / plan.perPage) !== page;
        const root = card.querySelector(".wu-root");
        if (root) {
          root.style.setProperty("--wu-fit", board + "px");
          // The text beside the board grows and shrinks with it, so what fits beside a board fits.
          root.style.setProperty("--wu-text", textSize(board));
          root.classList.toggle("wu-stacked", plan.stacked);
        }
      });
      box.style.setProperty("--wu-cols", String(plan.cols));
      if (pages > 1) {
        const first = page * plan.perPage + 1;
        const last = Math.min(cards.length, first + plan.perPage - 1);
        box.dataset.wuPage = first === last
          ? fmt(gettext("Board %(first)s of %(n)s: the others in turn (PageDown shows the next one)"), { first, n: cards.length })
          : fmt(gettext("Boards %(first)s-%(last)s of %(n)s: the others in turn (PageDown shows the next ones)"), { first, last, n: cards.length });
      } else {
        delete box.dataset.wuPage;
      }
    };
    const top = box.getBoundingClientRect().top;
    /** How much smaller the boards (and the text, which follows them) must be for every shown card to
     *  end above the window's bottom; 1 when they fit. A squeezed token table counts as too big. */
    const shrink = () => {
      let bottom = 0;
      let factor = 1;
      for (const card of cards) {
        if (card.hidden) continue;
        bottom = Math.max(bottom, card.getBoundingClientRect().bottom);
        const tokens = card.querySelector(".wu-players-box");
        if (tokens && tokens.scrollWidth > tokens.clientWidth + 1) factor = Math.min(factor, 0.92);
      }
      if (bottom > limit) factor = Math.min(factor, (limit - top) / (bottom - top));
      return factor;
    };
    const note = 28 + gap; // the line saying which boards are on show, when they take turns
    /** The largest board with which ``plan`` fits (0: none as large as minBoard). */
    const fitted = (plan) => {
      let board = plan.board;
      for (let attempt = 0; attempt < 8 && board >= minBoard; attempt += 1) {
        apply(plan, board);
        const factor = shrink();
        if (factor >= 1) return board;
        board = Math.floor(board * factor) - 2;
      }
      return 0;
    };
    const n = cards.length;
    // The same screen and boards as last time: keep the arrangement while it still fits (a full search
    // lays the page out many times), and look again for a larger one now and then.
    const key = [n, width, window.innerHeight, top, projector.page].join(":");
    const last = projector.last;
    if (last && last.key === key && Date.now() - last.at < 5000) {
      apply(last, last.board);
      if (shrink() >= 1) return;
    }
    const all = arrangements(n, width, limit - top, chrome, gap, minBoard).filter((p) => p.perPage === n);
    // Paged: as many per page as fit, the pages made even (8 boards: 4 and 4, not 5 and 3).
    const paged = arrangements(n, width, limit - top - note, chrome, gap, minBoard)
      .filter((p) => p.perPage < n)
      .map((p) => {
        const perPage = Math.ceil(n / Math.ceil(n / p.perPage));
        return { ...p, perPage, cols: Math.min(p.cols, perPage) };
      });
    let chosen = null;
    for (const group of [all, paged]) {
      // The most boards per page first; of those arrangements, the one with the largest boards.
      const most = group.length ? group[0].perPage : 0;
      for (const plan of group.filter((p) => p.perPage === most)) {
        const board = fitted(plan);
        if (board && (!chosen || board > chosen.board)) chosen = { ...plan, board };
      }
      if (chosen) break;
    }
    if (!chosen) {
      // Even one board to a page does not fit: try each, the largest that fits wins.
      for (const plan of paged.filter((p) => p.perPage === 1)) {
        const board = fitted(plan);
        if (board && (!chosen || board > chosen.board)) chosen = { ...plan, board };
      }
    }
    chosen = chosen || { perPage: 1, cols: 1, rows: 1, stacked: false, board: minBoard };
    apply(chosen, chosen.board);
    projector.page %= projector.pages;
    projector.last = { ...chosen, key: [n, width, window.innerHeight, top, projector.page].join(":"), at: Date.now() };
    if (projector.pages > 1 && !projector.timer) {
      projector.turnedAt = Date.now();
      projector.timer = setInterval(() => {
        if (Date.now() - projector.turnedAt >= PAGE_SECONDS * 1000) turnPage(1);
      }, 1000);
    } else if (projector.pages <= 1 && projector.timer) {
      clearInterval(projector.timer);
      projector.timer = null;
    }
    if (!projector.keys) {
      projector.keys = true;
      document.addEventListener("keydown", (event) => {
        if (event.altKey || event.ctrlKey || event.metaKey || projector.pages <= 1) return;
        const rtl = document.documentElement.dir === "rtl"; // pages turn the other way on a right-to-left page
        const step = { PageDown: 1, ArrowRight: rtl ? -1 : 1, ArrowDown: 1, " ": 1, PageUp: -1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        turnPage(step);
      });
    }
  }

  function turnPage(step) {
    projector.page = (projector.page + step + projector.pages) % projector.pages;
    projector.turnedAt = Date.now();
    layoutProjector();
  }
  window.addEventListener("resize", fitAll);
  window.addEventListener("load", fitAll);

  const key = (view) => [view.phase, view.turn, view.question ? view.question.serial : ""].join("|");

  function levelName(level) {
    return (
      {
        1: gettext("Elementary"),
        2: gettext("Lower Intermediate"),
        3: gettext("Intermediate"),
        4: gettext("Upper Intermediate"),
        5: gettext("Advanced"),
      }[level] || String(level)
    );
  }

  /** The student's keys (R, 1-9, L): only when one move is on offer on the page and nobody is typing. */
  let keysBound = false;
  function onKey(event) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    const moves = document.querySelectorAll(".wu-role-player .wu-move");
    if (moves.length !== 1 || !event.key) return;
    const k = event.key.toLowerCase();
    const button = moves[0].querySelector(`[data-key="${CSS.escape(k)}"]:not([disabled])`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  }

  const module = {
    render,
    // For the tests and the replay: every sentence the screen can say (tests/browser/test_wordup_text.py).
    helpers: { gridPlace, eventText, rollLine, answeredLabel, cardText, statusLine, outcomeLine, stoppedLine, resultAnnouncement, askLeftNote, boardSummary, squareName },
  };
  registerGame(GAME, module);
})();
