/* Line-Up's words: the view message's types, and every sentence the screen shows or says (the pad's
 * questions, a face's description, whose turn, how a round or the match was won, what changed since the
 * last message). Pure functions of the view message; no element is built here.
 * Part of the game's screen (docs/frontend.md): words.js, art.js, board.js and view.js draw, input.js acts.
 */

// The view message's types (global, so art.js, board.js, view.js and input.js use them too).

/**
 * A face as the view shows it (games/engine/faces/view.py, _public_face): its letter, name, features
 * and look (the picture's free choices: skin, shirt, hat colour...).
 * @typedef {object} FacesFace
 * @property {string} id its letter, "A" to "X"
 * @property {string} name
 * @property {string[]} features the pad's keys it has
 * @property {Record<string, any>} [look]
 * @property {string} [description] the English description (the screen writes its own, translated)
 * @property {"monster"} [kind] absent for a person
 */

/**
 * @typedef {object} FacesPlayer
 * @property {string} id
 * @property {string} name
 * @property {string | null} bot the computer's level ("easy", "medium", "hard"), else null
 */

/**
 * One question asked this round (rules.py, ask). The other player's questions carry only question,
 * answer, kept and removed.
 * @typedef {object} FacesAsked
 * @property {string} question the pad's key
 * @property {boolean} answer
 * @property {number} kept
 * @property {number} removed
 * @property {number} [yes] @property {number} [no] @property {number} [best]
 * @property {number} [quality] how close to the best split on the pad, 0 to 1
 */

/**
 * A finished round (view.py, _history; the projector's has no faces).
 * @typedef {object} FacesRound
 * @property {number} round
 * @property {string} winner
 * @property {"named_right" | "named_wrong" | "timeout"} reason
 * @property {Record<string, FacesFace>} [faces] each player's secret face
 * @property {Record<string, number>} [questions]
 */

/**
 * @typedef {object} FacesResult
 * @property {string} winner
 * @property {"rounds" | "resigned" | "timeout"} reason
 * @property {Record<string, number>} scores rounds won, with the rounds a resigning player concedes
 * @property {number} conceded
 */

/** @typedef {{left: string[], greyed: string[], left_count: number}} FacesBoardState */

/**
 * A question of the pad for this player (view.py, _pad).
 * @typedef {object} FacesPadItem
 * @property {string} id the feature's key
 * @property {string} label @property {string} question (English; the screen writes its own)
 * @property {boolean} allowed
 * @property {"already_asked" | "no_split" | null} refusal
 */

/**
 * @typedef {object} FacesLogEntry
 * @property {number} round
 * @property {"round_started" | "asked" | "named" | "round_over" | "match_over" | "resigned" | "timeout" | string} type
 * @property {string} [first] @property {string} [winner] @property {string} [player] @property {string} [reason]
 */

/** @typedef {{commitment?: string, seed?: string, salt?: string}} FacesVerification */

/**
 * What the engine shows one viewer of a Line-Up table (games/engine/faces/view.py, view_of): the player's
 * view has their board and card; the teacher's every player's questions and faces left; the projector's
 * (public) view never a face.
 * @typedef {object} FacesView
 * @property {"faces"} game
 * @property {"ask" | "reveal" | "over"} phase
 * @property {number} round
 * @property {number} rounds_to_win
 * @property {"people" | "monsters"} board_kind
 * @property {number} turn_seconds
 * @property {"pass" | "lose_round" | "lose_match"} timeout
 * @property {number} review_seconds
 * @property {string | null} turn whose turn it is
 * @property {FacesPlayer[]} players
 * @property {Record<string, number>} wins
 * @property {string[]} ready
 * @property {FacesResult | null} result
 * @property {{deadline?: number | null, remaining?: number | null, paused?: boolean}} clock
 * @property {FacesRound[]} rounds
 * @property {FacesLogEntry[]} log
 * @property {string} [you] the viewer (a player's device)
 * @property {string} [opponent]
 * @property {boolean} [your_turn]
 * @property {FacesFace[]} [board]
 * @property {FacesFace} [your_face]
 * @property {FacesBoardState} [your_board]
 * @property {FacesBoardState} [their_board]
 * @property {FacesPadItem[]} [pad]
 * @property {{you: FacesAsked[], them: FacesAsked[]} | Record<string, FacesAsked[]>} [asked] the player's
 *   (you, them) or the teacher's (by player id)
 * @property {FacesAsked | null} [feedback] the player's last question
 * @property {Record<string, number>} [faces_left] (the teacher's)
 * @property {FacesVerification} [verification]
 * @property {Record<string, FacesFace> | null} [unfinished_round_faces]
 */

/**
 * What one draw shows: the table's message for this viewer and their input in progress (input.js keeps
 * it: a face being named, a resignation being confirmed, the last refusal).
 * @typedef {object} FacesScene
 * @property {Omit<TableMessage, "view"> & {view: FacesView}} table
 * @property {FacesView} view
 * @property {GameContext} ctx
 * @property {string} uid the prefix of this screen's ids
 * @property {string | null} confirm the face being named, waiting for "Yes"
 * @property {boolean} resign the resignation waiting for "Yes"
 * @property {string} error the server's reason for the last refused move
 */

/**
 * What announcements compare: the moments of a view (words.js, snapshot).
 * @typedef {{round: number, phase: string, turn: string | null, you: number | null, them: number | null, rounds: number}} FacesSnapshot
 */

(function () {
  "use strict";

  const { gettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("faces");

  // ------------------------------------------------------------------------------------------------
  // The twenty questions of each board's pad (same order and keys as games/engine/faces/features.py for
  // people and games/engine/faces/monsters.py for monsters)
  // ------------------------------------------------------------------------------------------------

  const FEATURE_KEYS = [
    "red_hair", "blond_hair", "black_hair", "grey_hair", "long_hair", "curly_hair", "fringe",
    "thick_eyebrows", "blue_eyes", "glasses", "hat", "beard", "moustache", "freckles", "rosy_cheeks",
    "big_smile", "earrings", "necklace", "scarf", "striped_top",
  ];
  const HAIR_COLOURS = ["red_hair", "blond_hair", "black_hair", "grey_hair"];
  const MONSTER_KEYS = [
    "green_body", "blue_body", "purple_body", "orange_body", "one_eye", "three_eyes", "spots", "stripes",
    "horns", "antennae", "tuft", "pointy_ears", "wings", "tail", "fangs", "tongue", "big_nose", "bow_tie",
    "waving", "flower",
  ];
  /** Per kind of face: the pad's keys, and each category a face may have none of -> the words said then.
   *  @type {Record<"person" | "monster", {keys: string[], defaults: [string[], string][]}>} */
  const PADS = {
    person: { keys: FEATURE_KEYS, defaults: [[HAIR_COLOURS, "brown_hair"]] },
    monster: {
      keys: MONSTER_KEYS,
      defaults: [[["green_body", "blue_body", "purple_body", "orange_body"], "yellow_body"], [["one_eye", "three_eyes"], "two_eyes"]],
    },
  };

  /** Built on first use (after the catalog has loaded): label on the pad, the question, the description
   *  phrase. @type {Record<string, [string, string]> | null} */
  let wordsCache = null;
  function words() {
    if (wordsCache) return wordsCache;
    wordsCache = {
      red_hair: [gettext("red hair"), gettext("Does your person have red hair?")],
      blond_hair: [gettext("blond hair"), gettext("Does your person have blond hair?")],
      black_hair: [gettext("black hair"), gettext("Does your person have black hair?")],
      grey_hair: [gettext("grey hair"), gettext("Does your person have grey hair?")],
      long_hair: [gettext("long hair"), gettext("Does your person have long hair?")],
      curly_hair: [gettext("curly hair"), gettext("Does your person have curly hair?")],
      fringe: [gettext("a fringe"), gettext("Does your person have a fringe?")],
      thick_eyebrows: [gettext("thick eyebrows"), gettext("Does your person have thick eyebrows?")],
      blue_eyes: [gettext("blue eyes"), gettext("Does your person have blue eyes?")],
      glasses: [gettext("glasses"), gettext("Does your person wear glasses?")],
      hat: [gettext("a hat"), gettext("Is your person wearing a hat?")],
      beard: [gettext("a beard"), gettext("Does your person have a beard?")],
      moustache: [gettext("a moustache"), gettext("Does your person have a moustache?")],
      freckles: [gettext("freckles"), gettext("Does your person have freckles?")],
      rosy_cheeks: [gettext("rosy cheeks"), gettext("Does your person have rosy cheeks?")],
      big_smile: [gettext("a big smile"), gettext("Does your person have a big smile?")],
      earrings: [gettext("earrings"), gettext("Is your person wearing earrings?")],
      necklace: [gettext("a necklace"), gettext("Is your person wearing a necklace?")],
      scarf: [gettext("a scarf"), gettext("Is your person wearing a scarf?")],
      striped_top: [gettext("a striped top"), gettext("Is your person wearing a striped top?")],
      brown_hair: [gettext("brown hair"), ""],
      green_body: [gettext("green body"), gettext("Is your monster green?")],
      blue_body: [gettext("blue body"), gettext("Is your monster blue?")],
      purple_body: [gettext("purple body"), gettext("Is your monster purple?")],
      orange_body: [gettext("orange body"), gettext("Is your monster orange?")],
      one_eye: [gettext("one eye"), gettext("Does your monster have one eye?")],
      three_eyes: [gettext("three eyes"), gettext("Does your monster have three eyes?")],
      spots: [gettext("spots"), gettext("Does your monster have spots?")],
      stripes: [gettext("stripes"), gettext("Does your monster have stripes?")],
      horns: [gettext("horns"), gettext("Does your monster have horns?")],
      antennae: [gettext("antennae"), gettext("Does your monster have antennae?")],
      tuft: [gettext("a tuft of hair"), gettext("Does your monster have a tuft of hair?")],
      pointy_ears: [gettext("pointy ears"), gettext("Does your monster have pointy ears?")],
      wings: [gettext("wings"), gettext("Does your monster have wings?")],
      tail: [gettext("a tail"), gettext("Does your monster have a tail?")],
      fangs: [gettext("pointy teeth"), gettext("Does your monster have pointy teeth?")],
      tongue: [gettext("tongue out"), gettext("Is your monster sticking its tongue out?")],
      big_nose: [gettext("a big nose"), gettext("Does your monster have a big round nose?")],
      bow_tie: [gettext("a bow tie"), gettext("Is your monster wearing a bow tie?")],
      waving: [gettext("waving"), gettext("Is your monster waving?")],
      flower: [gettext("a flower"), gettext("Is your monster holding a flower?")],
      yellow_body: [gettext("yellow body"), ""],
      two_eyes: [gettext("two eyes"), ""],
    };
    return wordsCache;
  }

  /** The pad's label of a feature ("red hair"). @param {string} key @param {string} [fallback] */
  function label(key, fallback) {
    const entry = words()[key];
    return entry ? entry[0] : fallback || key;
  }

  /** The question a feature asks ("Does your person have red hair?"). @param {string} key @param {string} [fallback] */
  function questionText(key, fallback) {
    const entry = words()[key];
    return entry ? entry[1] : fallback || key;
  }

  /** "red hair, long hair, glasses" in the reader's language (a category the face has none of says its
   * default where the category is on the pad, like describe_with in games/engine/faces/pad.py).
   * @param {FacesFace} face */
  function featuresOf(face) {
    const features = new Set(face.features || []);
    const pad = PADS[face.kind === "monster" ? "monster" : "person"];
    /** @type {Record<string, string>} */
    const defaults = {};
    for (const [keys, word] of pad.defaults) {
      if (!keys.some((key) => features.has(key))) defaults[keys[0]] = word;
    }
    const phrases = [];
    for (const key of pad.keys) {
      if (defaults[key]) phrases.push(label(defaults[key]));
      if (features.has(key)) phrases.push(label(key));
    }
    return phrases.join(", ");
  }

  /** "Ava: red hair, long hair, glasses" in the reader's language (like features.describe).
   *  @param {FacesFace} face */
  function describe(face) {
    return interpolate(gettext("%(name)s: %(features)s"), { name: face.name, features: featuresOf(face) });
  }

  // ------------------------------------------------------------------------------------------------
  // Players, scores, rounds and the match
  // ------------------------------------------------------------------------------------------------

  /** A player's name ("Computer" for the computer). @param {FacesView} view @param {string | null | undefined} pid */
  function nameOf(view, pid) {
    const player = (view.players || []).find((p) => p.id === pid);
    if (!player) return pid || "";
    return player.bot ? gettext("Computer") : player.name;
  }

  /** @param {string} level */
  function botLabel(level) {
    const levels = { easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard") };
    return levels[level] || level;
  }

  /** @param {number | null | undefined} value 0 to 1 */
  function percent(value) {
    return interpolate(gettext("%(n)s %"), { n: Math.round((value || 0) * 100) });
  }

  /** @param {FacesView} view @param {string | null | undefined} pid */
  function otherOf(view, pid) {
    const other = (view.players || []).find((p) => p.id !== pid);
    return other ? other.id : null;
  }

  /** The viewer's turn to ask or name. @param {FacesView} view @param {{status: string}} table */
  function canAct(view, table) {
    return table.status === "playing" && view.phase === "ask" && !!view.your_turn;
  }

  /** "Ava named the right face." / "Ben named a wrong face." / "Ben ran out of time." ("You ..." on the
   *  device of the player it is about). @param {FacesView} view @param {FacesRound} record @param {string | null} [me] */
  function roundSentence(view, record, me) {
    const winnerId = record.winner;
    const loserId = otherOf(view, record.winner);
    if (record.reason === "named_right") {
      return me && winnerId === me ? gettext("You named the right face.") : interpolate(gettext("%(name)s named the right face."), { name: nameOf(view, winnerId) });
    }
    if (record.reason === "named_wrong") {
      return me && loserId === me ? gettext("You named a wrong face.") : interpolate(gettext("%(name)s named a wrong face."), { name: nameOf(view, loserId) });
    }
    if (record.reason === "timeout") {
      return me && loserId === me ? gettext("You ran out of time.") : interpolate(gettext("%(name)s ran out of time."), { name: nameOf(view, loserId) });
    }
    return "";
  }

  /** @param {string} reason */
  function roundHow(reason) {
    return (
      {
        named_right: gettext("named the right face"),
        named_wrong: gettext("the other player named a wrong face"),
        timeout: gettext("the other player ran out of time"),
      }[reason] || reason
    );
  }

  /** The match's score line: rounds won, or once it is over the result's score (a player who resigns or
   *  runs out of time under the stricter rule concedes the rounds the winner still needed).
   *  @param {FacesView} view @returns {Record<string, number>} */
  function scoresOf(view) {
    return (view.result && view.result.scores) || view.wins || {};
  }

  /** How the match was won, in one sentence; "you" on the device of one of its players.
   *  @param {FacesView} view @param {FacesResult} result @param {string | null} [me] */
  function matchSentence(view, result, me) {
    const scores = scoresOf(view);
    const won = scores[result.winner] || 0;
    const lost = scores[otherOf(view, result.winner)] || 0;
    const youWon = me && result.winner === me;
    const youLost = me && result.winner !== me;
    const winner = nameOf(view, result.winner);
    const loser = nameOf(view, otherOf(view, result.winner));
    if (result.reason === "resigned") {
      if (youWon) return interpolate(gettext("%(name)s resigned, so you win the match %(won)s–%(lost)s."), { name: loser, won, lost });
      if (youLost) return interpolate(gettext("You resigned, so %(name)s wins the match %(won)s–%(lost)s."), { name: winner, won, lost });
      return interpolate(gettext("%(loser)s resigned, so %(name)s wins the match %(won)s–%(lost)s."), { loser, name: winner, won, lost });
    }
    if (result.reason === "timeout") {
      if (youWon) return interpolate(gettext("%(name)s ran out of time on a turn, so you win the match %(won)s–%(lost)s."), { name: loser, won, lost });
      if (youLost) return interpolate(gettext("You ran out of time on a turn, so %(name)s wins the match %(won)s–%(lost)s."), { name: winner, won, lost });
      return interpolate(gettext("%(loser)s ran out of time on a turn, so %(name)s wins the match %(won)s–%(lost)s."), { loser, name: winner, won, lost });
    }
    if (youWon) return interpolate(gettext("You won %(won)s rounds to %(lost)s."), { won, lost });
    if (youLost) return interpolate(gettext("%(name)s won %(won)s rounds to %(lost)s."), { name: winner, won, lost });
    return interpolate(gettext("%(name)s won %(won)s rounds to %(lost)s."), { name: winner, won, lost });
  }

  /** Why a question of the pad cannot be asked. @param {string | null} code */
  function refusalText(code) {
    return (
      {
        already_asked: gettext("Already asked this round."),
        no_split: gettext("Every face left gives the same answer: it would rule nobody out."),
      }[code] || ""
    );
  }

  /** What running out of time costs under this match's rule. @param {FacesView} view */
  function timeoutText(view) {
    if (!view.turn_seconds) return "";
    return (
      {
        lose_match: gettext("Running out of time on your turn loses the match."),
        lose_round: gettext("Running out of time on your turn loses the round."),
        pass: gettext("Running out of time on your turn passes the turn."),
      }[view.timeout] || ""
    );
  }

  /** @param {FacesView} view */
  function roundLine(view) {
    if (view.phase === "over") return gettext("Match over");
    return interpolate(gettext("Round %(round)s · first to %(target)s"), { round: view.round, target: view.rounds_to_win });
  }

  /** Whose move, between rounds, or who won: the console's and the projector's status.
   *  @param {FacesView} view @param {{status: string}} table */
  function statusText(view, table) {
    if (table.status === "ended" && view.phase !== "over") return gettext("Ended by the teacher");
    if (view.phase === "ask") return interpolate(gettext("%(name)s to move"), { name: nameOf(view, view.turn) });
    if (view.phase === "reveal") return gettext("Between rounds");
    const result = view.result || /** @type {Partial<FacesResult>} */ ({});
    return interpolate(gettext("%(name)s won the match"), { name: nameOf(view, result.winner) });
  }

  /** The device's status line: whose turn, or the round over; null once the match is over or ended.
   *  @param {FacesView} view @param {{status: string}} table */
  function turnLine(view, table) {
    const ended = table.status !== "playing" && view.phase !== "over";
    if (!ended && view.phase === "ask") {
      return view.your_turn
        ? gettext("Your turn: ask one question or name a face.")
        : interpolate(gettext("%(name)s's turn. Get ready."), { name: nameOf(view, view.opponent) });
    }
    if (!ended && view.phase === "reveal") return gettext("Round over.");
    return null;
  }

  /** @param {FacesView} view */
  function awayHint(view) {
    return view.timeout === "pass"
      ? gettext("Their turns pass to the other player until they are back; they do not lose the match for it.")
      : gettext("Running out of time costs them under this match's rule: use +30 s or Pause if they are coming back.");
  }

  /** A paused clock's time left, written in its place (the countdown draws nothing without a deadline).
   *  @param {FacesView} view */
  function pausedClockText(view) {
    const clock = view.clock || {};
    if (clock.deadline == null && clock.paused && clock.remaining != null) {
      return interpolate(gettext("%(s)s s left (paused)"), { s: Math.ceil(clock.remaining) });
    }
    return "";
  }

  /** @param {boolean} answer */
  const yesNo = (answer) => (answer ? gettext("Yes") : gettext("No"));

  // ------------------------------------------------------------------------------------------------
  // What changed: said once through the page's live region (input.js)
  // ------------------------------------------------------------------------------------------------

  /** The moments of a view the announcements compare. @param {FacesView} view @returns {FacesSnapshot} */
  function snapshot(view) {
    const asked = /** @type {{you?: FacesAsked[], them?: FacesAsked[]}} */ (view.asked || {});
    return {
      round: view.round,
      phase: view.phase,
      turn: view.turn,
      you: asked.you ? asked.you.length : null,
      them: asked.them ? asked.them.length : null,
      rounds: (view.rounds || []).length,
    };
  }

  /** What a player's device says about a new view, after `before` (null: the screen's first view).
   *  @param {FacesView} view @param {FacesSnapshot | null} before @returns {string[]} */
  function newsOf(view, before) {
    const now = snapshot(view);
    const asked = /** @type {{you: FacesAsked[], them: FacesAsked[]}} */ (view.asked);
    const said = [];
    if (!before) {
      if (view.phase === "ask") {
        said.push(view.your_turn ? gettext("Your turn: ask one question or name a face.") : interpolate(gettext("%(name)s's turn. Get ready."), { name: nameOf(view, view.opponent) }));
      }
      return said;
    }
    const sameRound = before.round === now.round;
    if (sameRound && now.them > before.them) {
      const entry = asked.them[asked.them.length - 1];
      said.push(interpolate(gettext("%(name)s asked: %(question)s Answer: %(answer)s. They have %(n)s faces left."), {
        name: nameOf(view, view.opponent), question: questionText(entry.question), answer: entry.answer ? gettext("yes") : gettext("no"), n: view.their_board.left_count,
      }));
    }
    if (sameRound && now.you > before.you && view.feedback) {
      said.push(interpolate(gettext("Answer: %(answer)s. It kept %(kept)s faces and removed %(removed)s. Split quality %(q)s."), {
        answer: view.feedback.answer ? gettext("yes") : gettext("no"), kept: view.feedback.kept, removed: view.feedback.removed, q: percent(view.feedback.quality),
      }));
    }
    if (now.rounds > before.rounds) {
      const record = view.rounds[view.rounds.length - 1];
      said.push(record.winner === view.you ? interpolate(gettext("You won round %(round)s!"), { round: record.round }) : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round }));
      const theirs = record.faces && record.faces[view.opponent];
      if (theirs) said.push(interpolate(gettext("Their face was %(name)s."), { name: theirs.name }));
    }
    if (now.phase === "over" && before.phase !== "over" && view.result) {
      said.push(view.result.winner === view.you ? gettext("You won the match!") : interpolate(gettext("%(name)s won the match."), { name: nameOf(view, view.result.winner) }));
    } else if (now.phase === "ask" && (before.phase !== "ask" || !sameRound)) {
      said.push(interpolate(gettext("Round %(round)s starts. New faces."), { round: view.round }));
      said.push(view.your_turn ? gettext("You ask first.") : interpolate(gettext("%(name)s asks first."), { name: nameOf(view, view.opponent) }));
    } else if (now.phase === "ask" && view.your_turn && before.turn !== now.turn) {
      said.push(gettext("Your turn."));
    }
    return said;
  }

  Object.assign(pieces, {
    PADS,
    label,
    questionText,
    featuresOf,
    describe,
    nameOf,
    botLabel,
    percent,
    otherOf,
    canAct,
    roundSentence,
    roundHow,
    scoresOf,
    matchSentence,
    refusalText,
    timeoutText,
    roundLine,
    statusText,
    turnLine,
    awayHint,
    pausedClockText,
    yesNo,
    snapshot,
    newsOf,
  });
})();
