/* Mind the Lines' words: the view message's types, and every sentence the screen shows or says about the
 * game (players' names, the themes, the phase, a drawing's label, who drew or excluded what). Pure
 * functions of the view message; no element is built here. Part of the game's screen (docs/frontend.md):
 * words.js, geometry.js, board.js, view.js and fit.js draw, input.js acts.
 */

// The view message's types (global, so the game's other files use them too).

/** A dotted line: a unit segment [x1, y1, x2, y2] of the 12 x 12 lattice, the smaller point first.
 *  @typedef {number[]} MindlinesSegment */
/** A piece of a stroke: a straight run [x1, y1, x2, y2] or half a segment [x1, y1, x2, y2, 0 | 1].
 *  @typedef {number[]} MindlinesPiece */
/** @typedef {MindlinesPiece[]} MindlinesStroke */
/** @typedef {"looking" | "scribbling" | "prophesying" | "reveal" | "over"} MindlinesPhase */

/**
 * @typedef {object} MindlinesPlayer
 * @property {string} id
 * @property {number} seat
 * @property {string} name
 * @property {boolean} bot
 */

/**
 * A drawing in the group's gallery (games/engine/mindlines/view.py, _shown_drawing); the teacher's view
 * holds every drawing as it grows, with its strokes even when hidden.
 * @typedef {object} MindlinesGalleryEntry
 * @property {string} player
 * @property {number} [board]
 * @property {number} [side]
 * @property {boolean} [shown]
 * @property {boolean} [hidden]
 * @property {number} [rotation] once shown (always for the teacher)
 * @property {MindlinesSegment[]} [lines] once shown (always for the teacher)
 * @property {MindlinesStroke[] | null} [strokes] null while the teacher hides a shown drawing
 */

/** @typedef {{id: string, text: string, theme?: string, difficulty?: string}} MindlinesConcept */

/**
 * The viewer's own board.
 * @typedef {object} MindlinesOwnDrawing
 * @property {number} board
 * @property {0 | 1} side
 * @property {number} rotation 0, 90, 180 or 270
 * @property {MindlinesStroke[]} strokes
 * @property {boolean} shown
 * @property {boolean} hidden
 * @property {boolean} can_undo
 * @property {MindlinesSegment[][]} sides the dotted lines of side A and side B
 */

/**
 * What only the viewer's device gets (view.py, _own_view).
 * @typedef {object} MindlinesMe
 * @property {string} player
 * @property {number} seat
 * @property {MindlinesConcept[]} concepts
 * @property {MindlinesOwnDrawing} drawing
 * @property {boolean} ready
 * @property {boolean} continued
 * @property {boolean} my_turn
 * @property {number[]} [cards] the cards on the table that are the viewer's concepts (from prophesying)
 */

/** A card on the table while prophesying. @typedef {{card: number, text: string, excluded_by: string | null}} MindlinesCard */

/**
 * A card once revealed (rules.py, _reveal).
 * @typedef {object} MindlinesRevealCard
 * @property {number} card
 * @property {string} id
 * @property {string} text
 * @property {string} [theme]
 * @property {string} [difficulty]
 * @property {boolean} decoy
 * @property {string | null} drawn_by
 * @property {string | null} excluded_by
 */

/**
 * One revealed round.
 * @typedef {object} MindlinesRound
 * @property {number} round
 * @property {number} errors
 * @property {number} total_errors
 * @property {MindlinesRevealCard[]} cards
 * @property {Record<string, string[]>} hands each player's concept ids
 */

/**
 * @typedef {object} MindlinesResult
 * @property {boolean} won
 * @property {boolean} [ended_early]
 * @property {number} errors
 * @property {number} error_limit
 * @property {number} rounds_played
 * @property {Record<string, number>} scores
 */

/** An event of the table's log (only "excluded" is read). @typedef {{type: string, at?: number, player?: string, text?: string}} MindlinesEvent */

/**
 * @typedef {object} MindlinesProphecy
 * @property {string} first_prophesier
 * @property {string[]} turn_order
 * @property {number} turns_taken
 * @property {MindlinesCard[] | MindlinesRevealCard[]} cards
 * @property {{player: string, card: number}[]} exclusions
 */

/**
 * What the engine shows one viewer of a Mind the Lines table (games/engine/mindlines/view.py, build_view).
 * @typedef {object} MindlinesView
 * @property {"mindlines"} game
 * @property {"player" | "teacher" | "projector" | "spectator"} viewer
 * @property {MindlinesPhase} phase
 * @property {number} round
 * @property {number} rounds
 * @property {string} difficulty
 * @property {MindlinesPlayer[]} players
 * @property {number} concepts_each
 * @property {{draw_seconds: number, exclude_seconds: number}} timers
 * @property {number} errors
 * @property {number} error_limit
 * @property {{deadline?: number | null, remaining?: number | null, paused?: boolean}} clock
 * @property {string | null} turn the prophesier, while prophesying
 * @property {string[]} waiting_for
 * @property {string[]} ready
 * @property {MindlinesGalleryEntry[]} gallery
 * @property {MindlinesRound[]} history
 * @property {MindlinesEvent[]} log
 * @property {MindlinesResult | null} result
 * @property {MindlinesProphecy} [prophecy] from prophesying on
 * @property {MindlinesMe} [me] a player's own part
 * @property {{drawings: Record<string, MindlinesGalleryEntry>, bots: string[]}} [teacher]
 */

(function () {
  "use strict";

  const { gettext, ngettext, pgettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("mindlines");

  /** @param {number} side */
  function sideName(side) {
    return side === 0 ? gettext("side A") : gettext("side B");
  }

  /** A player's name; the viewer is "You" on a label of its own (a figure's caption, the list of
   *  players). A sentence about the viewer has its own wording ("You excluded …", "drawn by you"), never
   *  the viewer's "You" put into a sentence written for somebody else ("Tú excluyó").
   *  @param {{players?: MindlinesPlayer[]}} view @param {string | null | undefined} id @param {string | null} me */
  function nameOf(view, id, me) {
    if (id && me && id === me) return gettext("You");
    const player = (view.players || []).find((p) => p.id === id);
    return player ? player.name : id || "";
  }

  // The shipped decks' themes, named in the device's language (the deck holds English keys; a word list's
  // own theme is shown as its teacher wrote it). The same names as games/definitions/mindlines/pages.py.
  /** @returns {Record<string, string>} */
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

  /** @param {string} theme */
  function themeName(theme) {
    return Object.prototype.hasOwnProperty.call(THEME_NAMES(), theme) ? THEME_NAMES()[theme] : theme;
  }

  /** @param {MindlinesView} view */
  function phaseTitle(view) {
    return {
      looking: gettext("Read your concept"),
      scribbling: gettext("Scribbling"),
      prophesying: gettext("Prophesying"),
      reveal: gettext("The reveal"),
      over: gettext("Game over"),
    }[view.phase] || view.phase;
  }

  /** @param {MindlinesView} view */
  function errorsText(view) {
    return interpolate(gettext("Error points: %(errors)s (the group may have %(limit)s)"), {
      errors: view.errors,
      limit: view.error_limit,
    });
  }

  /** The latest revealed round, if any. @param {MindlinesView} view @returns {MindlinesRound | null} */
  function latestReveal(view) {
    return view.history && view.history.length ? view.history[view.history.length - 1] : null;
  }

  /** @param {MindlinesView} view @param {MindlinesGalleryEntry} entry @param {string | null} me
   *  @param {string | null} conceptText */
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

  /** @param {MindlinesView} view @param {string | null} player @param {string | null} me */
  function drawnByText(view, player, me) {
    return me && player === me ? gettext("drawn by you") : interpolate(gettext("drawn by %(name)s"), { name: nameOf(view, player, null) });
  }

  /** @param {MindlinesView} view @param {string | null} player @param {string | null} me */
  function excludedByText(view, player, me) {
    return me && player === me ? gettext("excluded by you") : interpolate(gettext("excluded by %(name)s"), { name: nameOf(view, player, null) });
  }

  /** The exclusion just made, as the announcement says it.
   *  @param {MindlinesView} view @param {MindlinesEvent} event @param {string | null} me */
  function exclusionText(view, event, me) {
    return me && event.player === me
      ? interpolate(gettext("You excluded “%(text)s”."), { text: event.text })
      : interpolate(gettext("%(name)s excluded “%(text)s”."), { name: nameOf(view, event.player, null), text: event.text });
  }

  /** What each player drew in a revealed round ("cat + moon"), by player.
   *  @param {MindlinesView} view @param {MindlinesRound | null} reveal @returns {Map<string, string>} */
  function drawnLabels(view, reveal) {
    const labels = new Map();
    if (!reveal) return labels;
    const text = new Map(reveal.cards.map((card) => [card.id, card.text]));
    for (const [player, ids] of Object.entries(reveal.hands || {})) {
      labels.set(player, ids.map((id) => text.get(id)).join(" + "));
    }
    return labels;
  }

  /** Each player's recognised concepts over the rounds revealed so far (the engine's standing).
   *  @param {MindlinesView} view @returns {Map<string, number>} */
  function standing(view) {
    const scores = new Map(view.players.map((player) => [player.id, 0]));
    for (const round of view.history || []) {
      for (const card of round.cards) {
        if (card.drawn_by && card.excluded_by === null) scores.set(card.drawn_by, (scores.get(card.drawn_by) || 0) + 1);
      }
    }
    return scores;
  }

  /** The viewer's own board, as a screen reader names it.
   *  @param {MindlinesOwnDrawing} drawing @param {boolean} editable */
  function boardLabel(drawing, editable) {
    const count = drawing.strokes.length;
    return editable
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
  }

  /** What a player's device says when the phase (or the prophesier) changes.
   *  @param {MindlinesView} view @param {string | null} me */
  function phaseNews(view, me) {
    if (view.phase === "looking") return interpolate(gettext("Round %(round)s: read your secret concept."), { round: view.round });
    if (view.phase === "scribbling") return gettext("Start drawing! Only on the dotted lines.");
    if (view.phase === "prophesying") {
      return view.turn === me
        ? gettext("Your turn: exclude one concept you think nobody drew.")
        : interpolate(gettext("%(name)s is excluding a concept."), { name: nameOf(view, view.turn, null) });
    }
    if (view.phase === "reveal") {
      const reveal = view.history[view.history.length - 1];
      return interpolate(
        ngettext("The reveal: %(count)s error point this round.", "The reveal: %(count)s error points this round.", reveal.errors),
        { count: reveal.errors },
      );
    }
    if (view.phase === "over" && view.result) return view.result.won ? gettext("The group wins!") : gettext("The game is lost.");
    return "";
  }

  Object.assign(pieces, {
    sideName,
    nameOf,
    themeName,
    phaseTitle,
    errorsText,
    latestReveal,
    drawingLabel,
    drawnByText,
    excludedByText,
    exclusionText,
    drawnLabels,
    standing,
    boardLabel,
    phaseNews,
  });
})();
