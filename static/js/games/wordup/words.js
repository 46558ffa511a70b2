/* Word Up's words: the view message's types, and every sentence the screen shows or says (square and
 * category names, whose turn, the log, the cards, the outcome, what is announced). Pure functions of the
 * view message and the viewer; no element is built here.
 * Part of the game's screen (docs/frontend.md): words.js, board.js and view.js draw, fit.js sizes the
 * board to the window, input.js acts. The rules are docs/games/wordup.md.
 */

// The view message's types (global, so board.js, view.js, fit.js and input.js use them too).

/** @typedef {"missing_word" | "crossword" | "multiple_choice" | "spelling"} WordupCategory */

/**
 * A category as the view lists it (games/engine/wordup/board.py, CATEGORY_INFO).
 * @typedef {object} WordupCategoryInfo
 * @property {WordupCategory} id
 * @property {string} colour "orange", "green", "blue", "yellow"
 * @property {string} icon "gap", "grid", "list", "ear"
 * @property {string} [label] the English name
 */

/**
 * One of the board's 40 squares.
 * @typedef {object} WordupSquare
 * @property {number} index
 * @property {"question" | "option" | "bonus" | "lose_two" | "free_two" | "stop" | "word_up"} kind
 * @property {WordupCategory} [category] a question square's
 * @property {WordupCategory[]} [categories] an option square's two
 */

/**
 * @typedef {object} WordupPlayer
 * @property {string} id
 * @property {string} name
 * @property {number} position the square the pawn is on
 * @property {Partial<Record<WordupCategory, number>>} tokens
 * @property {number} total
 * @property {WordupCategory[]} complete the colours with enough tokens
 * @property {boolean} is_bot
 */

/**
 * A Word Up card (board.py, public_card).
 * @typedef {object} WordupCard
 * @property {string} kind "any_category", "free_or_answer", "lose_colour", "move_to_colour", "exchange",
 *   "ask_left", "stop_or_lose"
 * @property {WordupCategory} [category]
 * @property {string} [colour]
 * @property {string} [text] the English text
 */

/**
 * The question on show, public part only (rules.py, public_question): never an answer, and for Spelling
 * neither the word nor the sentence.
 * @typedef {object} WordupQuestion
 * @property {number} serial the n-th question of the game
 * @property {WordupCategory} category
 * @property {string} colour
 * @property {string} player who answers
 * @property {string | null} asker whose Ask-the-player-on-your-left card it is
 * @property {number} reward tokens a right answer wins
 * @property {string} mode "normal", "ask_left", ...
 * @property {string} prompt
 * @property {number} [letters] Missing Word
 * @property {string} [first_letter] Crossword Clues
 * @property {string[]} [choices] Multiple Choice
 * @property {{serial: number, parts: string[]}} [audio] Spelling
 */

/**
 * The last answer and its mark (rules.py, _result): public once answered.
 * @typedef {object} WordupResult
 * @property {WordupQuestion} question
 * @property {string} player
 * @property {WordupCategory} category
 * @property {string[]} answers
 * @property {string[]} alternatives
 * @property {string | null} response
 * @property {number | null} choice
 * @property {boolean} correct
 * @property {boolean} teacher_marked
 * @property {boolean} open refused, and the teacher may still accept it
 * @property {string} [word] Spelling
 * @property {string} [sentence] Spelling
 * @property {number[]} [right_choices] Multiple Choice
 */

/**
 * A log entry (rules.py, _emit).
 * @typedef {object} WordupEvent
 * @property {string} type "first_player", "roll", "category_chosen", "answered", "teacher_accept", "card",
 *   "card_no_choice", "move", "exchange", "tokens", "timeout", "time_up", "game_over"
 * @property {string} [player]
 * @property {number} [total] @property {number} [to] @property {WordupCategory} [category]
 * @property {boolean} [correct] @property {string | null} [response] @property {WordupCard} [card]
 * @property {string} [with] @property {WordupCategory} [give] @property {WordupCategory} [take]
 * @property {number} [change] @property {string} [reason]
 */

/**
 * A move the viewer may make now (rules.py, legal_moves), sent as it is; an answer is
 * {type: "answer", answer} or {type: "answer", choice} (a multiple choice's index).
 * @typedef {{type: string, category?: WordupCategory, categories?: WordupCategory[], choice?: string | number,
 *   with?: string, give?: WordupCategory, take?: WordupCategory, question?: number, answer?: string}} WordupAction
 */

/**
 * What the engine shows one viewer of a Word Up table (games/engine/wordup/view.py, build_view), with
 * `stopped` added by the screen once the table is no longer playing.
 * @typedef {object} WordupView
 * @property {"wordup"} game
 * @property {string} phase "roll", "choose_category", "answer", "reveal", "card_choice", "discard",
 *   "free_tokens", "over"
 * @property {string | null} turn
 * @property {string[]} current_players
 * @property {{deadline?: number | null, game_deadline?: number | null}} clock
 * @property {WordupSquare[]} board
 * @property {WordupCategoryInfo[]} categories
 * @property {WordupPlayer[]} players
 * @property {number} target tokens of each colour to win
 * @property {number | null} time_limit
 * @property {string} first_player
 * @property {number} deck_size
 * @property {{chooser?: string, answerer?: string | null, options?: WordupCategory[], reward?: number,
 *   mode?: string, source?: string, card?: WordupCard, choices?: string[], lose?: number, take?: number,
 *   player?: string, teacher_may_accept?: boolean}} pending
 * @property {WordupQuestion | null} question
 * @property {{player: string, dice: number[], total: number, from: number, to: number} | null} last_roll
 * @property {WordupCard | null} last_card
 * @property {WordupResult | null} last_result
 * @property {WordupEvent[]} log
 * @property {{winners: string[], reason: string} | null} outcome
 * @property {"teacher" | "player" | "projector" | "spectator"} viewer
 * @property {{id: string, level: number, level_name: string}} [you] the student's own
 * @property {Record<string, number>} [levels] the teacher's
 * @property {WordupAction[]} [actions]
 * @property {"finished" | "ended"} [stopped] the table is over whatever the phase
 */

/** The viewer of the sentences: their role and engine player id. @typedef {{role: string, player?: string | null}} WordupViewer */

(function () {
  "use strict";

  const { gettext, ngettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("wordup");

  // A name that ends in a full stop ("Ben K.") at the end of a sentence must not make "Ben K..".
  // (On an Arabic page the name is isolated: "Ben K.\u2069." is the same slip.)
  /** @param {string} text @param {object} values */
  const fmt = (text, values) => interpolate(text, values).replace(/(?<!\.)\.(\u2069?)\.(?!\.)/g, ".$1");

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

  /** @param {WordupView} view @param {string} id */
  function categoryInfo(view, id) {
    const info = (view.categories || []).find((c) => c.id === id) || { id, colour: "", icon: "", label: "" };
    return {
      id,
      colour: info.colour,
      icon: info.icon,
      label: CATEGORY_LABELS()[id] || info.label || id,
      colourName: COLOUR_NAMES()[info.colour] || info.colour,
    };
  }

  /** "orange (Missing Word)": colour and name together, as everywhere on screen.
   *  @param {WordupView} view @param {string} id */
  function categoryName(view, id) {
    const info = categoryInfo(view, id);
    return fmt(gettext("%(colour)s (%(category)s)"), { colour: info.colourName, category: info.label });
  }

  const SQUARE_NAMES = () => ({
    bonus: gettext("Bonus"),
    lose_two: gettext("Lose two tokens"),
    free_two: gettext("Two free tokens"),
    stop: gettext("Stop"),
    word_up: gettext("Word Up!"),
    option: gettext("Option"),
  });

  /** @param {WordupView} view @param {number} index */
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

  /** @param {WordupView} view */
  function players(view) {
    return view.players || [];
  }
  /** @param {WordupView} view @param {string | null | undefined} pid */
  function playerIndex(view, pid) {
    return players(view).findIndex((p) => p.id === pid);
  }
  /** @param {WordupView} view @param {string | null | undefined} pid */
  function playerOf(view, pid) {
    return players(view).find((p) => p.id === pid);
  }
  /** The viewer's player id (null for the teacher, the projector and the replay).
   *  @param {WordupView} view @param {WordupViewer} ctx */
  function me(view, ctx) {
    return (view.you && view.you.id) || (ctx.role === "player" ? ctx.player : null);
  }
  /** Whether ``pid`` is the viewer (sentences about the viewer have their own wording: "your answer",
   *  "you start", never "You's answer" or "You starts").
   *  @param {WordupView} view @param {WordupViewer} ctx @param {string | null | undefined} pid */
  function isMe(view, ctx, pid) {
    return !!pid && pid === me(view, ctx);
  }
  /** The player's name. Never "You": a sentence about the viewer has its own wording ("You rolled 7",
   *  never "%(name)s rolled 7" given "You"), which other languages conjugate ("Sacaste 7").
   *  @param {WordupView} view @param {WordupViewer} _ctx @param {string | null | undefined} pid */
  function who(view, _ctx, pid) {
    const player = playerOf(view, pid);
    return player ? player.name : gettext("Someone");
  }

  /** @param {WordupView} view @param {WordupViewer} ctx */
  function boardSummary(view, ctx) {
    const parts = players(view).map((p) =>
      isMe(view, ctx, p.id)
        ? fmt(gettext("you on %(square)s"), { square: squareName(view, p.position) })
        : fmt(gettext("%(name)s on %(square)s"), { name: who(view, ctx, p.id), square: squareName(view, p.position) })
    );
    return fmt(gettext("The board: %(where)s."), { where: parts.join("; ") });
  }

  /** @param {number} level */
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

  // ---------------------------------------------------------------------------------------------------
  // What is happening (one sentence) and the log
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupView} view @param {WordupViewer} ctx */
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
        const q = view.question || /** @type {WordupQuestion} */ ({});
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

  /** The game was ended by the teacher: say so, and who had the most tokens at that moment.
   *  @param {WordupView} view @param {WordupViewer} ctx */
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

  /** @param {WordupView} view @param {WordupViewer} ctx */
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

  /** One log entry as a sentence for this viewer (null: not worth a line).
   *  @param {WordupView} view @param {WordupViewer} ctx @param {WordupEvent} e @returns {string | null} */
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

  /** @param {WordupEvent} e @param {string} name @param {boolean} mine */
  function answeredText(e, name, mine) {
    if (e.correct) return mine ? gettext("You answered right.") : fmt(gettext("%(name)s answered right."), { name });
    if (e.response === null) return mine ? gettext("You ran out of time.") : fmt(gettext("%(name)s ran out of time."), { name });
    return mine ? gettext("You answered wrong.") : fmt(gettext("%(name)s answered wrong."), { name });
  }

  /** @param {WordupView} view @param {WordupEvent} e */
  function yourTokensText(view, e) {
    const colour = categoryInfo(view, e.category).colourName;
    return e.change > 0
      ? fmt(ngettext("You won %(n)s %(colour)s token.", "You won %(n)s %(colour)s tokens.", e.change), { n: e.change, colour })
      : fmt(ngettext("You gave back %(n)s %(colour)s token.", "You gave back %(n)s %(colour)s tokens.", -e.change), { n: -e.change, colour });
  }

  /** @param {WordupView} view @param {WordupCard | null | undefined} card */
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

  /** Whose Ask-the-player-on-your-left card it is, and who answers.
   *  @param {WordupView} view @param {WordupViewer} ctx @param {{asker: string | null, player: string}} q */
  function askLeftNote(view, ctx, q) {
    if (isMe(view, ctx, q.asker)) return fmt(gettext("Your card: %(name)s answers."), { name: who(view, ctx, q.player) });
    if (isMe(view, ctx, q.player)) return fmt(gettext("%(asker)s's card: you answer."), { asker: who(view, ctx, q.asker) });
    return fmt(gettext("%(asker)s's card: %(name)s answers."), { asker: who(view, ctx, q.asker), name: who(view, ctx, q.player) });
  }

  // The engine's standard spelling instructions (games/engine/wordup/questions.py), listed here so the
  // JavaScript catalog holds them: the word is English, the instruction is in the student's language.
  /** @param {string} text */
  const gettext_noop = (text) => text; // marks a string for the catalog (makemessages -d djangojs)
  // eslint-disable-next-line no-unused-vars -- read by makemessages, not by the screen
  const SPELLING_INSTRUCTIONS = [
    gettext_noop("Listen to the sentence and the word, then type the word."),
    gettext_noop("Spell what you hear."),
    gettext_noop("Type what you hear."),
  ];

  /** A spelling question's instruction in the device's language: one of SPELLING_INSTRUCTIONS is in the
   * catalog; a bank's own wording stays as written (the catalog does not hold it). @param {string} prompt */
  function spellingInstruction(prompt) {
    return prompt ? gettext(prompt) : gettext("Listen and spell the word.");
  }

  /** @param {WordupView} view @param {WordupViewer} ctx @param {string} pid */
  function answeredLabel(view, ctx, pid) {
    return isMe(view, ctx, pid) ? gettext("You answered") : fmt(gettext("%(name)s answered"), { name: who(view, ctx, pid) });
  }

  /** The right answers of a result, as shown (a multiple choice's by their text). @param {WordupResult} result */
  function rightAnswers(result) {
    return result.category === "multiple_choice" && result.right_choices ? result.right_choices.map((i) => result.question.choices[i]) : result.answers;
  }

  /** What is said when an answer is marked: right, accepted by the teacher, or refused (with the answer).
   *  @param {WordupView} view @param {WordupViewer} ctx @param {WordupResult} result */
  function resultAnnouncement(view, ctx, result) {
    const mine = isMe(view, ctx, result.player);
    const name = who(view, ctx, result.player);
    const right = rightAnswers(result).join(", ");
    if (result.correct && result.teacher_marked) return mine ? gettext("The teacher accepted your answer.") : fmt(gettext("The teacher accepted %(name)s's answer."), { name });
    if (result.correct) return mine ? gettext("Right!") : fmt(gettext("%(name)s: right!"), { name });
    if (result.open) return mine ? fmt(gettext("Not right. The answer is %(answer)s."), { answer: right }) : fmt(gettext("%(name)s: not right. The answer is %(answer)s."), { name, answer: right });
    return null;
  }

  /** @param {WordupView} view @param {WordupViewer} ctx @param {{player: string, total: number}} roll */
  function rollLine(view, ctx, roll) {
    if (isMe(view, ctx, roll.player)) return fmt(gettext("You rolled %(total)s"), { total: roll.total });
    return fmt(gettext("%(name)s rolled %(total)s"), { name: who(view, ctx, roll.player), total: roll.total });
  }

  Object.assign(pieces, {
    fmt,
    categoryInfo,
    categoryName,
    squareName,
    players,
    playerIndex,
    playerOf,
    me,
    isMe,
    who,
    boardSummary,
    levelName,
    statusLine,
    stoppedLine,
    outcomeLine,
    eventText,
    cardText,
    askLeftNote,
    spellingInstruction,
    answeredLabel,
    rightAnswers,
    resultAnnouncement,
    rollLine,
  });
})();
