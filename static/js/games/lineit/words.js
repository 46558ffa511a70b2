/* Line-it's words: the view message's types, and every sentence the screen shows or says (card names,
 * the log, whose turn, what to do now). Pure functions of the view message; no element is built here.
 * Part of the game's screen (docs/frontend.md): words.js, board.js and view.js draw, input.js acts.
 */

// The view message's types (global, so board.js, view.js and input.js use them too).

/**
 * One card as the view shows it (games/engine/lineit/view.py, card_view). A card's value is there only
 * once it is scored, for a bet card, or when the game is over.
 * @typedef {object} LineitCard
 * @property {string} id
 * @property {"number" | "bet"} kind
 * @property {LineitColour} colour
 * @property {LineitSymbol} symbol
 * @property {string} face what the card shows ("3/4", "-2.5", "BET")
 * @property {string | number} [value] the exact value ("15/2")
 */
/** @typedef {"red" | "green" | "blue" | "yellow"} LineitColour */
/** @typedef {"heart" | "leaf" | "diamond" | "star"} LineitSymbol */
/** @typedef {"up" | "down" | null} LineitDirection */

/**
 * A player's line: its cards, direction, bet and the number cards of each colour.
 * @typedef {object} LineitLine
 * @property {LineitCard[]} cards
 * @property {LineitDirection} direction
 * @property {{card: string, bet: number, cards_after: number} | null} bet
 * @property {Record<LineitColour, number>} colour_counts
 */

/**
 * @typedef {object} LineitPlayer
 * @property {string} id
 * @property {string} name
 * @property {boolean} bot
 * @property {LineitLine} line
 * @property {number} hand_count
 * @property {number} pile_count
 * @property {number[]} tokens the bet tokens won (+n) and lost (-n)
 * @property {number} score
 */

/**
 * A log entry for this viewer (rules.py writes them; the view replaces card ids by card views).
 * @typedef {object} LineitLogEntry
 * @property {number} n its number in the log
 * @property {string} type "round", "take", "place", "score", "jackpot", "leftovers", "final",
 *   "hand_discarded", "end_turn", "timeout", "game_over"
 * @property {string} [player]
 * @property {LineitCard} [card] absent when another player took it into their hand
 * @property {LineitCard[]} [cards] a scored line
 * @property {LineitCard[]} [discarded]
 * @property {Record<string, LineitCard[]>} [moved] the leftovers, by the jackpot they went under
 * @property {any} [round] @property {any} [first] @property {any} [to] @property {any} [source]
 * @property {any} [sets_direction] @property {any} [direction] @property {any} [banked]
 * @property {{bet: number, after: number, won: boolean}} [bet]
 * @property {LineitColour} [colour] @property {number} [count]
 */

/**
 * What the engine shows one viewer of a Line-it table (games/engine/lineit/view.py, build_view).
 * @typedef {object} LineitView
 * @property {"lineit"} game
 * @property {"player" | "teacher" | "projector" | "spectator"} role
 * @property {"draft" | "final" | "over"} phase
 * @property {number} level
 * @property {number} round
 * @property {number} rounds_left
 * @property {number} deck_count
 * @property {number} discard_count
 * @property {number} market_size
 * @property {number} hand_limit
 * @property {LineitCard[]} market
 * @property {{player: string, step: "take" | "after" | "final", played_from_hand: boolean} | null} turn
 * @property {string | null} whose_turn
 * @property {string} first_player
 * @property {LineitPlayer[]} players
 * @property {{colour: LineitColour, symbol: LineitSymbol, count: number, cards: LineitCard[]}[]} jackpots
 * @property {{deadline?: number | null, paused?: boolean, remaining?: number | null}} clock
 * @property {LineitLogEntry[]} log
 * @property {{winners: string[], scores: Record<string, number>, piles: Record<string, number>,
 *   tokens: Record<string, number[]>} | null} outcome
 * @property {{player: string, hand: LineitCard[]}} [you] the viewer's own hand (a player's device only)
 * @property {{turn_seconds: number}} [settings] (the teacher's)
 */

/** @typedef {"market" | "hand"} LineitSource */
/** @typedef {{source: LineitSource, id: string}} LineitPick */

/**
 * What one draw shows: the table's message for this viewer, who the viewer is, and their input in
 * progress (input.js keeps it: a pick, a move on its way, the last refusal).
 * @typedef {object} LineitScene
 * @property {Omit<TableMessage, "view"> & {view: LineitView}} table
 * @property {GameContext} ctx
 * @property {string} uid the prefix of this screen's ids
 * @property {string | null} me the viewer's player id (a player's device), else null
 * @property {LineitPick | null} selected
 * @property {boolean} pending
 * @property {string | null} error
 */

(function () {
  "use strict";

  const { gettext, ngettext, interpolate: fmt, localDecimals } = window.ClassplayUI;

  const COLOURS = ["red", "green", "blue", "yellow"];

  // A face or value as the page's language writes it: a true minus sign, its decimal separator ("2,5").
  const pretty = (text) => localDecimals(text).replace(/-/g, "\u2212");

  /** "15/2" -> "7.5", "1/3" -> null: the exact decimal of a stored fraction, when it has one. */
  function exactDecimal(value) {
    const [top, bottom = "1"] = String(value).split("/");
    /** @type {bigint} */
    let n;
    /** @type {bigint} */
    let d;
    try {
      n = BigInt(top);
      d = BigInt(bottom);
    } catch (_error) {
      return null;
    }
    let rest = d;
    while (rest % 2n === 0n) rest /= 2n;
    while (rest % 5n === 0n) rest /= 5n;
    if (rest !== 1n || d === 0n) return null;
    const negative = n < 0n;
    if (negative) n = -n;
    let remainder = n % d;
    let digits = "";
    while (remainder !== 0n && digits.length < 10) {
      remainder *= 10n;
      digits += String(remainder / d);
      remainder %= d;
    }
    return (negative ? "-" : "") + String(n / d) + (digits ? "." + digits : "");
  }

  /** The value to print under a card's face (null when the face already says it). @param {LineitCard} card */
  function valueNote(card) {
    if (card.kind !== "number" || card.value === undefined || card.value === null) return null;
    const shown = exactDecimal(card.value) || String(card.value);
    return shown === String(card.face) ? null : shown;
  }

  const colourName = (colour) =>
    ({ red: gettext("red"), green: gettext("green"), blue: gettext("blue"), yellow: gettext("yellow") })[colour] ||
    colour;
  const symbolName = (symbol) =>
    ({ heart: gettext("heart"), leaf: gettext("leaf"), diamond: gettext("diamond"), star: gettext("star") })[
      symbol
    ] || symbol;
  const suitName = (colour, symbol) =>
    fmt(gettext("%(colour)s %(symbol)s"), { colour: colourName(colour), symbol: symbolName(symbol) });
  const SYMBOL_OF = { red: "heart", green: "leaf", blue: "diamond", yellow: "star" };

  function betValue(card) {
    return card.value !== undefined && card.value !== null ? String(card.value) : "?";
  }

  /** How a card is read aloud. @param {LineitCard} card */
  function cardLabel(card) {
    // The name starts with the card's visible text ("BET +3"), as speech recognition users say it.
    if (card.kind === "bet") return fmt(gettext("Bet +%(bet)s card"), { bet: betValue(card) });
    const note = valueNote(card);
    const base = fmt(gettext("%(face)s, %(suit)s"), { face: pretty(card.face), suit: suitName(card.colour, card.symbol) });
    return note ? fmt(gettext("%(card)s, value %(value)s"), { card: base, value: pretty(note) }) : base;
  }

  /** A card's short name in sentences: "3/4 (red heart)", "Bet +4". @param {LineitCard | undefined} card */
  function cardName(card) {
    if (!card) return gettext("a card");
    if (card.kind === "bet") return fmt(gettext("Bet +%(bet)s"), { bet: betValue(card) });
    return fmt(gettext("%(face)s (%(suit)s)"), { face: pretty(card.face), suit: suitName(card.colour, card.symbol) });
  }

  /** @param {LineitView} view @param {string | null} id */
  function nameOf(view, id) {
    const player = (view.players || []).find((p) => p.id === id);
    return player ? player.name : gettext("someone");
  }

  function tokenSum(tokens) {
    return (tokens || []).reduce((sum, t) => sum + t, 0);
  }

  function signed(n) {
    return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0";
  }

  function directionText(direction) {
    if (direction === "up") return gettext("going up");
    if (direction === "down") return gettext("going down");
    return gettext("direction not set yet");
  }

  function lineEndCard(line) {
    const numbers = (line.cards || []).filter((c) => c.kind === "number");
    return numbers.length ? numbers[numbers.length - 1] : null;
  }

  function lineNumberCount(line) {
    return (line.cards || []).filter((c) => c.kind === "number").length;
  }

  // ---------------------------------------------------------------------------------------------------
  // The log, as sentences (shown in "What happened", spoken through ctx.announce)
  // ---------------------------------------------------------------------------------------------------

  /** A log entry as a sentence for the viewer `me` (null: a sentence about everyone), or null when it
   *  says nothing of its own. @param {LineitLogEntry} entry @param {LineitView} view @param {string | null} me */
  function logText(entry, view, me) {
    const mine = me !== null && entry.player === me;
    const name = entry.player ? nameOf(view, entry.player) : "";
    const card = entry.card ? cardName(entry.card) : null;
    switch (entry.type) {
      case "round":
        return entry.first === me
          ? fmt(gettext("Round %(round)s: new market. You pick first."), { round: entry.round })
          : fmt(gettext("Round %(round)s: new market. %(name)s picks first."), {
              round: entry.round,
              name: nameOf(view, entry.first),
            });
      case "take":
        if (entry.to === "hand") {
          if (mine) return card ? fmt(gettext("You took %(card)s into your hand."), { card }) : gettext("You took a card into your hand.");
          return fmt(gettext("%(name)s took a card into their hand."), { name });
        }
        if (entry.to === "new_line") {
          return mine
            ? fmt(gettext("%(card)s fit neither your line nor your hand: you scored your line to start a new one."), { card })
            : fmt(gettext("%(name)s had to score their line to start a new one with %(card)s."), { name, card });
        }
        return null; // "place" tells the rest
      case "place": {
        let text;
        if (entry.source === "hand") {
          text = mine
            ? fmt(gettext("You played %(card)s from your hand into your line."), { card })
            : fmt(gettext("%(name)s played %(card)s from their hand into their line."), { name, card });
        } else {
          text = mine
            ? fmt(gettext("You put %(card)s in your line."), { card })
            : fmt(gettext("%(name)s put %(card)s in their line."), { name, card });
        }
        if (entry.sets_direction) {
          text += " " + (entry.direction === "up" ? gettext("The line now goes up.") : gettext("The line now goes down."));
        }
        return text;
      }
      case "score": {
        const banked = entry.banked || 0;
        let text = mine
          ? fmt(ngettext("You scored your line: %(count)s card banked.", "You scored your line: %(count)s cards banked.", banked), {
              count: banked,
            })
          : fmt(
              ngettext("%(name)s scored their line: %(count)s card banked.", "%(name)s scored their line: %(count)s cards banked.", banked),
              { name, count: banked },
            );
        if (entry.bet) {
          text +=
            " " +
            (entry.bet.won
              ? fmt(gettext("Bet +%(bet)s won (%(after)s number cards after it)."), entry.bet)
              : fmt(gettext("Bet +%(bet)s lost (only %(after)s number cards after it)."), entry.bet));
        }
        return text;
      }
      case "jackpot": {
        const suit = suitName(entry.colour, SYMBOL_OF[entry.colour]);
        return mine
          ? fmt(ngettext("You won the %(suit)s jackpot: %(count)s card!", "You won the %(suit)s jackpot: %(count)s cards!", entry.count), {
              suit,
              count: entry.count,
            })
          : fmt(
              ngettext("%(name)s won the %(suit)s jackpot: %(count)s card.", "%(name)s won the %(suit)s jackpot: %(count)s cards.", entry.count),
              { name, suit, count: entry.count },
            );
      }
      case "leftovers": {
        const moved = entry.moved || {};
        const buried = COLOURS.reduce((sum, colour) => sum + (moved[colour] || []).length, 0);
        if (!buried) return null;
        return fmt(ngettext("%(count)s card nobody took went under its jackpot.", "%(count)s cards nobody took went under their jackpots.", buried), {
          count: buried,
        });
      }
      case "final":
        return gettext("Not enough cards for another market: last plays! Everyone may play one card from their hand, then scores their line.");
      case "hand_discarded":
        return mine
          ? fmt(ngettext("Your last hand card is discarded.", "Your last %(count)s hand cards are discarded.", entry.count), { count: entry.count })
          : fmt(ngettext("%(name)s discards %(count)s hand card.", "%(name)s discards %(count)s hand cards.", entry.count), {
              name,
              count: entry.count,
            });
      case "end_turn":
        return mine ? gettext("You ended your turn.") : fmt(gettext("%(name)s ended their turn."), { name });
      case "timeout":
        return mine
          ? gettext("Time ran out: the game played your turn for you.")
          : fmt(gettext("Time ran out for %(name)s: the game played for them."), { name });
      case "game_over":
        return gettext("Game over!");
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Whose turn, and what the viewer may do now
  // ---------------------------------------------------------------------------------------------------

  /** The viewer's player id on a player's device (ctx, else the view's "you"), else null.
   *  @param {LineitScene["table"]} table @param {GameContext} ctx @returns {string | null} */
  function viewerOf(table, ctx) {
    return ctx.role === "player" ? ctx.player || (table.view.you && table.view.you.player) || null : null;
  }

  /** @param {Pick<LineitScene, "table" | "ctx" | "me">} scene */
  function myTurn(scene) {
    const view = scene.table.view;
    return scene.ctx.role === "player" && scene.me !== null && view.whose_turn === scene.me && scene.table.status === "playing" && view.phase !== "over";
  }

  /** @param {Pick<LineitScene, "ctx">} scene */
  function paused(scene) {
    return ((scene.ctx && scene.ctx.session) || {}).status === "paused";
  }

  /** The step of the viewer's own turn when they may act now (null: not their turn, or the session is
   *  paused). @param {Pick<LineitScene, "table" | "ctx" | "me">} scene
   *  @returns {"take" | "after" | "final" | null} */
  function step(scene) {
    return myTurn(scene) && !paused(scene) ? scene.table.view.turn.step : null;
  }

  /** @param {LineitScene} scene */
  function turnText(scene) {
    const view = scene.table.view;
    if (scene.table.status === "ended" && view.phase !== "over") return gettext("The teacher ended this game.");
    if (view.phase === "over") return gettext("Game over");
    if (!view.turn) return "";
    if (myTurn(scene)) return gettext("Your turn");
    return fmt(gettext("%(name)s's turn"), { name: nameOf(view, view.whose_turn) });
  }

  /** What the viewer is asked to do now (empty when the game is over). @param {LineitScene} scene */
  function promptText(scene) {
    const view = scene.table.view;
    const now = step(scene);
    const hand = (view.you && view.you.hand) || [];
    if (now === "take") {
      return hand.length >= view.hand_limit
        ? gettext("Take one card from the market (tap, drag or press its number): into your line, or, if it fits neither your line nor your full hand, score your line and start a new one with it.")
        : gettext("Take one card from the market (tap, drag or press its number): into your line or into your hand.");
    }
    if (now === "after") {
      if (!view.turn.played_from_hand && hand.length) {
        return gettext("You may play one card from your hand into your line (tap it, or drag it onto the line). Then score your line or end your turn.");
      }
      return gettext("Score your line, or end your turn.");
    }
    if (now === "final") {
      return !view.turn.played_from_hand && hand.length
        ? gettext("Last play: you may play one card from your hand into your line, then you must score your line.")
        : gettext("Last play: score your line to finish.");
    }
    if (view.phase === "over" || scene.table.status !== "playing") return "";
    if (paused(scene)) return gettext("The game is paused. Wait for your teacher.");
    // (never "Wait for Aisha K..": a name may end with an initial's dot)
    return fmt(gettext("%(name)s is playing. Wait for your turn."), { name: nameOf(view, view.whose_turn) });
  }

  Object.assign(window.ClassplayUI.pieces("lineit"), {
    COLOURS,
    SYMBOL_OF,
    pretty,
    exactDecimal,
    valueNote,
    suitName,
    betValue,
    cardLabel,
    cardName,
    nameOf,
    tokenSum,
    signed,
    directionText,
    lineEndCard,
    lineNumberCount,
    logText,
    viewerOf,
    myTurn,
    paused,
    step,
    turnText,
    promptText,
  });
})();
