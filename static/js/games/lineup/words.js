/* Line Up!'s words: the view message's types, and every sentence the screen shows or says (team and
 * space names, the mini-games, the log, the phase, each team's status). Pure functions of the view
 * message; no element is built here. Part of the game's screen (docs/frontend.md): words.js, board.js,
 * panels.js and view.js draw, input.js acts.
 */

// The view message's types (global, so the other files of the screen use them too).

/** @typedef {"blue" | "yellow"} LineupTeam */
/** @typedef {"purple" | "orange" | "pink" | "star" | "final" | "tiebreak"} LineupMini */
/** @typedef {"predict" | "bid" | "answer" | "star" | "final" | "reveal" | "over"} LineupPhase */

/**
 * A team as every viewer sees it (games/engine/lineup/view.py, _public_team).
 * @typedef {object} LineupTeamView
 * @property {number} size
 * @property {number} position its space on the track
 * @property {string} zone
 * @property {boolean} on_star
 * @property {boolean} [playing] it takes part in this question
 * @property {string | null} [captain]
 * @property {boolean} [locked] its choice or answer is in
 * @property {number} [prediction] shown once both teams predicted
 * @property {number} [bid] the bidder's bid
 * @property {number[]} [rack] the bidder's rack, face up (pink, tie-break)
 * @property {{id: string, name: string, bot: string | null}[]} [members] the staff screens only
 */

/**
 * A team's own part: its members (and the teacher) only (view.py, _private_team).
 * @typedef {object} LineupTeamPrivate
 * @property {LineupTeam} team
 * @property {string | null} [captain]
 * @property {number[]} [rack] the shared rack, while the team answers
 * @property {string | null} [rack_by] who moved it last
 * @property {number[] | null} [my_order] the viewer's own order (a player's device)
 * @property {Record<string, number[]>} [orders] every member's order (the teacher's)
 * @property {number[]} [locked_answer]
 * @property {{value: number, by: string} | null} [proposal] the team's choice (predict, bid)
 * @property {Record<string, number>} [proposals] who suggested what
 * @property {Record<string, number>} [proposal_counts] the tally, by value
 * @property {number | null} [locked_value]
 * @property {LineupStarProposal | null} [star_proposal]
 * @property {{order: number[], wrong: number}[]} [attempts] the 5-space's tries
 */

/** @typedef {{kind: "lay" | "stop", card?: number, position?: number, by: string}} LineupStarProposal */

/**
 * A question's public part: its five cards without their data (rules.py, public_question).
 * @typedef {object} LineupQuestion
 * @property {string} id
 * @property {string} heading
 * @property {string} order_label
 * @property {string} direction
 * @property {number} level
 * @property {string} subject
 * @property {string[]} [tags]
 * @property {{card: number, text: string, display?: string, value?: any}[]} cards
 */

/**
 * The answer on show (state["reveal"]), from the reveal on.
 * @typedef {object} LineupReveal
 * @property {LineupQuestion} question with each card's display
 * @property {number[]} answer the right order
 * @property {string} [explanation]
 * @property {string} [source]
 * @property {LineupMini} [mini]
 * @property {boolean} [held] the teacher holds it on screen
 * @property {Record<string, any>} results each team's order, right count, prediction or bid, star cards
 * @property {{team: LineupTeam, from: number, to: number, why: string}[]} [moves]
 */

/**
 * A public log entry (rules.py writes them); the fields depend on its type.
 * @typedef {object} LineupLogEntry
 * @property {number} n
 * @property {string} type
 * @property {LineupTeam} [team]
 * @property {any} [round] @property {any} [mini] @property {any} [what] @property {any} [predictions]
 * @property {any} [bids] @property {any} [bidder] @property {any} [rolls] @property {any} [first]
 * @property {any} [from] @property {any} [to] @property {any} [why] @property {any} [card]
 * @property {any} [position] @property {any} [right] @property {any} [wrong] @property {any} [name]
 * @property {any} [by] @property {any} [player]
 */

/**
 * What the engine shows one viewer of a Line Up! table (games/engine/lineup/view.py, build_view).
 * @typedef {object} LineupView
 * @property {"lineup"} game
 * @property {string} title
 * @property {LineupPhase} phase
 * @property {LineupMini | null} mini
 * @property {number} round
 * @property {number} [max_rounds]
 * @property {boolean} [time_up]
 * @property {{name: string, zones: {colour: string, first: number, last: number}[], stars: number[],
 *   final: number}} board
 * @property {Record<LineupTeam, LineupTeamView>} teams
 * @property {{teams: LineupTeam[], players?: string[]}} turn
 * @property {LineupQuestion | null} question
 * @property {number | null} question_serial
 * @property {{team: LineupTeam, pos: number}[]} stars_pending
 * @property {LineupTeam | null} winner
 * @property {boolean} over
 * @property {LineupLogEntry[]} log
 * @property {LineupLogEntry[]} [last_events]
 * @property {{deadline?: number | null, remaining?: number | null, paused?: boolean}} clock
 * @property {{rounds: {blue: number, yellow: number}[], bidder: LineupTeam | null, bid: number | null}} [bids]
 * @property {{team: LineupTeam, space: number, laid: {card: number, position: number, right: boolean}[],
 *   can_stop: boolean}} [star]
 * @property {{team: LineupTeam, attempt: number, wrong: number | null}} [final]
 * @property {LineupReveal} [reveal]
 * @property {"player" | "teacher" | "projector" | "spectator"} viewer
 * @property {{id: string, name: string, team: LineupTeam, captain: boolean, can: string[]}} [you]
 * @property {LineupTeamPrivate} [my_team]
 * @property {Record<string, string>} [names] every player the view mentions
 * @property {string[]} [teacher_can] the console's actions (hold, continue)
 * @property {Record<LineupTeam, LineupTeamPrivate>} [team_details] the teacher's
 */

(function () {
  "use strict";

  // The shared builders and translation shim (static/js/games/common.js, loaded first): the catalog from
  // ctx on every render, English without one. Its interpolate fills named placeholders.
  const { gettext, ngettext, pgettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");

  /** @type {LineupTeam[]} */
  const TEAMS = ["blue", "yellow"];
  const DIE = [1, 2, 3, 5];
  const CARDS = [1, 2, 3, 4, 5];

  function teamName(team) {
    return team === "blue" ? gettext("Blue") : gettext("Yellow");
  }

  function teamLabel(team) {
    return fmt(gettext("%(team)s team"), { team: teamName(team) });
  }

  function spaces(n) {
    return fmt(ngettext("%(n)s space", "%(n)s spaces", n), { n: n });
  }

  function miniName(mini) {
    return (
      {
        purple: gettext("Purple"),
        orange: gettext("Orange"),
        pink: gettext("Pink"),
        star: gettext("Star space"),
        final: gettext("The 5-space"),
        tiebreak: gettext("Tie-break"),
      }[mini] || ""
    );
  }

  function miniLine(view) {
    const star = view.star ? teamLabel(view.star.team) : "";
    const final = view.final ? teamLabel(view.final.team) : "";
    switch (view.mini) {
      case "purple":
        return gettext("Purple: both teams answer. Move one space for every card in the right place.");
      case "orange":
        return gettext(
          "Orange: predict 1, 2, 3 or 5 right, then answer. Make your prediction and move that many; miss it and stay."
        );
      case "pink":
        return gettext(
          "Pink: secret bids. The higher bid answers face up: make it and move the bid, miss and the other team moves it."
        );
      case "star":
        return fmt(
          gettext("Star space: %(team)s lays cards one at a time. Stop while right, or go on: a mistake moves the other team."),
          { team: star }
        );
      case "final":
        return fmt(
          gettext("The 5-space: %(team)s wins with all five right (one rearrangement allowed). A miss moves the other team 5."),
          { team: final }
        );
      case "tiebreak":
        return gettext("Tie-break: both teams are on the 5-space. The higher bid answers: make it and win, miss it and lose.");
      default:
        return "";
    }
  }

  /** A zone with its article, to go in a sentence: "an orange space". */
  function zoneName(zone) {
    return (
      {
        start: gettext("the start"),
        purple: gettext("a purple space"),
        orange: gettext("an orange space"),
        pink: gettext("a pink space"),
        final: gettext("the 5-space"),
      }[zone] || ""
    );
  }

  function whyMoved(why) {
    return (
      {
        purple: gettext("cards right"),
        orange: gettext("prediction made"),
        pink_made: gettext("bid made"),
        pink_missed: gettext("the other team missed its bid"),
        star: gettext("star cards"),
        star_mistake: gettext("the other team's star mistake"),
        final_missed: gettext("the other team missed the 5-space"),
        sudden_death: gettext("time is up: straight to the 5-space"),
      }[why] || ""
    );
  }

  // Every name a view mentions comes in view.names (a student's view carries no rosters: it must stay
  // the same size in a class of 2000); the staff screens also get each team's members.
  function nameOf(view, player) {
    if (view.names && player in view.names) return view.names[player];
    for (const team of TEAMS) {
      for (const member of view.teams[team].members || []) if (member.id === player) return member.name;
    }
    return player || "";
  }

  function cardText(view, card) {
    const q = view.question;
    const found = q && q.cards.find((c) => c.card === card);
    return found ? found.text : "";
  }

  /** One sentence for a public log entry, or "" for entries not worth saying aloud. */
  function describe(entry, view) {
    const team = entry.team ? teamLabel(entry.team) : "";
    switch (entry.type) {
      case "round_started":
        return fmt(gettext("Round %(round)s: %(mini)s."), { round: entry.round, mini: miniName(entry.mini) });
      case "locked":
        if (entry.what === "predict") return fmt(gettext("%(team)s locked in its prediction."), { team });
        if (entry.what === "bid") return fmt(gettext("%(team)s locked in its bid."), { team });
        return fmt(gettext("%(team)s locked in its answer."), { team });
      case "predictions_revealed":
        return fmt(gettext("Predictions: Blue %(blue)s, Yellow %(yellow)s."), entry.predictions);
      case "bids_revealed":
        if (!entry.bidder) return fmt(gettext("Bids: Blue %(blue)s, Yellow %(yellow)s. Equal bids!"), entry.bids);
        return fmt(gettext("Bids: Blue %(blue)s, Yellow %(yellow)s. %(team)s answers."), {
          blue: entry.bids.blue,
          yellow: entry.bids.yellow,
          team: teamLabel(entry.bidder),
        });
      case "die_roll":
        return fmt(gettext("Dice: Blue rolled %(blue)s, Yellow rolled %(yellow)s. %(team)s goes first."), {
          blue: entry.rolls.blue,
          yellow: entry.rolls.yellow,
          team: teamLabel(entry.first),
        });
      case "moved":
        if (entry.to >= view.board.final)
          return fmt(gettext("%(team)s moves %(spaces)s to the 5-space (%(why)s)."), {
            team,
            spaces: spaces(entry.to - entry.from),
            why: whyMoved(entry.why),
          });
        return fmt(gettext("%(team)s moves %(spaces)s to space %(to)s (%(why)s)."), {
          team,
          spaces: spaces(entry.to - entry.from),
          to: entry.to,
          why: whyMoved(entry.why),
        });
      case "reveal_held":
        return gettext("The teacher is holding the answer on screen.");
      case "reveal_continued":
        return "";
      case "star_turn_lost":
        return fmt(gettext("%(team)s was moved off its star space and loses its star turn."), { team });
      case "star_turn_started":
        return fmt(gettext("%(team)s is on a star space: an extra question just for them."), { team });
      case "star_card":
        return entry.right
          ? fmt(gettext("%(team)s laid card %(card)s in place %(position)s: right!"), {
              team,
              card: entry.card,
              position: entry.position,
            })
          : fmt(gettext("%(team)s laid card %(card)s in place %(position)s: wrong."), {
              team,
              card: entry.card,
              position: entry.position,
            });
      case "star_stopped":
        return fmt(gettext("%(team)s stops."), { team });
      case "star_forfeit":
        return fmt(gettext("%(team)s laid no card in time: the star turn is lost."), { team });
      case "final_started":
        return fmt(gettext("%(team)s is on the 5-space: all five right wins!"), { team });
      case "final_checked":
        return fmt(ngettext("%(team)s has %(n)s card wrong.", "%(team)s has %(n)s cards wrong.", entry.wrong), {
          team,
          n: entry.wrong,
        });
      case "revealed":
        return gettext("The answer is shown.");
      case "won":
        return fmt(gettext("%(team)s wins!"), { team });
      case "tiebreak_started":
        return gettext("Both teams are on the 5-space: tie-break!");
      case "sudden_death":
        return gettext("Time is up: the team in front goes straight to the 5-space.");
      case "time_up":
        return gettext("The game's time is up: this is the last question before the 5-space.");
      case "joined":
        return fmt(gettext("%(name)s joins the %(team)s."), { name: entry.name, team });
      case "questions_restarted":
        return "";
      default:
        return "";
    }
  }


  // The subjects as the teacher's Subject setting names them (the view carries the key).
  function subjectName(key) {
    const names = {
      science: gettext("Science"),
      geography: gettext("Geography"),
      history: gettext("History"),
      language: pgettext("school subject", "Language"),
      maths: gettext("Maths"),
      body: gettext("The human body"),
      technology: gettext("Technology and inventions"),
      sport: gettext("Sport"),
      arts: gettext("Art and music"),
    };
    return names[key] || key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, " ");
  }

  function phaseTitle(view) {
    switch (view.phase) {
      case "predict":
        return gettext("Predict");
      case "bid":
        return gettext("Bid");
      case "answer":
        return gettext("Answer");
      case "star":
        return gettext("Star turn");
      case "final":
        return view.final && view.final.attempt === 2 ? gettext("5-space: last try") : gettext("5-space");
      case "reveal":
        return gettext("The answer");
      case "over":
        return gettext("Game over");
      default:
        return "";
    }
  }

  function teamStatus(view, team) {
    const t = view.teams[team];
    const bits = [];
    if (t.playing === false) bits.push(gettext("watching"));
    else if (t.locked) bits.push(gettext("✓ locked in"));
    else if (view.turn.teams.includes(team)) bits.push(gettext("thinking…"));
    if (t.prediction != null) bits.push(fmt(gettext("predicted %(n)s"), { n: t.prediction }));
    if (t.bid != null) bits.push(fmt(gettext("bid %(n)s"), { n: t.bid }));
    return bits.join(" · ");
  }

  function isLive(view, table) {
    return table.status === "playing" && !view.over;
  }

  /** The clock's text while it is paused, else "" (a running one is drawn by ctx.countdown). */
  function pausedClock(view, table) {
    const c = view.clock || {};
    if (!isLive(view, table) || !c.paused || c.remaining == null) return "";
    const s = Math.max(0, Math.round(c.remaining));
    return fmt(gettext("%(time)s (paused)"), { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` });
  }

  Object.assign(pieces, { TEAMS, DIE, CARDS, teamName, teamLabel, spaces, miniName, miniLine, zoneName, whyMoved });
  Object.assign(pieces, { nameOf, cardText, describe, subjectName, phaseTitle, teamStatus, isLive, pausedClock });
})();
