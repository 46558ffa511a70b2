/* Line Up!'s board: each piece of the screen as elements (the track, the question, the cards, the racks
 * nobody here may move, the reveal, the winner, the log, the teams), from the view message with
 * ClassplayUI's h. Pure: no listener and no state here; a control says what it does in data-* attributes
 * (data-place on a star place, data-action on a move button) and input.js acts on them.
 */
(function () {
  "use strict";

  const { h, gettext, ngettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");
  const { TEAMS, CARDS, teamLabel, spaces, miniName, zoneName, whyMoved, nameOf, cardText, describe } = pieces;
  const { subjectName, phaseTitle, teamStatus, isLive, pausedClock } = pieces;

  function teamChip(team, extra) {
    return h(
      "span",
      { class: `lu-chip lu-chip-${team}` },
      h("span", { class: "lu-pawn-icon", "aria-hidden": "true" }, team === "blue" ? "B" : "Y"),
      teamLabel(team),
      extra ? h("span", { class: "lu-chip-extra" }, extra) : null
    );
  }

  function miniChip(mini) {
    if (!mini) return null;
    return h("span", { class: `lu-mini lu-mini-${mini}` }, miniName(mini));
  }

  /** The turn clock beside the move: input.js draws a running one with ctx.countdown after each draw (a
   *  paused one shows its time left). None where the page draws it (the card's header) or in a replay. */
  function clock(view, table, ctx, outerClock) {
    if (outerClock || ctx.role === "replay") return null;
    return h("span", { class: "lu-clock", "data-countdown": true, "aria-label": gettext("Time left") }, pausedClock(view, table));
  }

  function board(view, size) {
    const b = view.board;
    const stars = new Set(b.stars);
    const pos = { blue: view.teams.blue.position, yellow: view.teams.yellow.position };
    const zoneOf = (n) => {
      if (n >= b.final) return "final";
      for (const z of b.zones) if (n >= z.first && n <= z.last) return z.colour;
      return "start";
    };
    const summary = fmt(
      gettext("Track: Blue on %(blue)s; Yellow on %(yellow)s. The 5-space is space %(final)s."),
      {
        blue: pos.blue >= b.final ? gettext("the 5-space") : fmt(gettext("space %(n)s, %(zone)s"), { n: pos.blue, zone: zoneName(zoneOf(pos.blue)) }),
        yellow:
          pos.yellow >= b.final ? gettext("the 5-space") : fmt(gettext("space %(n)s, %(zone)s"), { n: pos.yellow, zone: zoneName(zoneOf(pos.yellow)) }),
        final: b.final,
      }
    );
    const cells = [];
    for (let n = 0; n <= b.final; n++) {
      const here = TEAMS.filter((t) => pos[t] === n);
      cells.push(
        h(
          "li",
          {
            class: `lu-space lu-zone-${zoneOf(n)}${stars.has(n) ? " lu-star" : ""}${n === b.final ? " lu-final" : ""}`,
            "data-space": n,
          },
          h("span", { class: `lu-space-n${n === 0 ? " flip-rtl" : ""}`, "aria-hidden": "true" }, n === 0 ? "▶" : n === b.final ? "5" : stars.has(n) ? "★" : n),
          here.length
            ? h(
                "span",
                { class: "lu-pawns", "aria-hidden": "true" },
                here.map((t) => h("span", { class: `lu-pawn lu-pawn-${t}`, title: teamLabel(t) }, t === "blue" ? "B" : "Y"))
              )
            : null
        )
      );
    }
    const toGo = TEAMS.map((t) =>
      h(
        "span",
        { class: `lu-togo lu-togo-${t}` },
        teamChip(t),
        " ",
        pos[t] >= b.final ? gettext("on the 5-space") : fmt(gettext("%(n)s to go"), { n: b.final - pos[t] })
      )
    );
    return h(
      "figure",
      { class: `lu-board lu-board-${size}`, "data-board": b.name },
      // The track is drawn for the eyes; a screen reader gets the same in one sentence.
      h("p", { class: "visually-hidden lu-track-summary" }, summary),
      h("ol", { class: "lu-track", "aria-hidden": "true" }, cells),
      h("figcaption", { class: "lu-board-caption" }, toGo)
    );
  }

  function questionHead(view, big) {
    const q = view.question;
    if (!q) return null;
    return h(
      "header",
      { class: "lu-question" },
      h(big ? "h2" : "h3", { class: "lu-heading" }, q.heading),
      h(
        "p",
        { class: "lu-order-label" },
        h("span", { class: "lu-arrow flip-rtl", "aria-hidden": "true" }, "→"),
        " ",
        q.order_label,
        h("span", { class: "lu-q-meta" }, " · ", fmt(gettext("level %(n)s"), { n: q.level }), q.subject ? ` · ${subjectName(q.subject)}` : "")
      )
    );
  }

  /** The five cards as a plain list (predicting, bidding, watching). Left to right on an Arabic page too,
   *  as the rack reads, so the projector and the devices show them in one order (a card's own text keeps
   *  its direction). */
  function cardList(view) {
    const q = view.question;
    if (!q) return null;
    return h(
      "ol",
      { class: "lu-cardlist", dir: "ltr", "aria-label": gettext("The five cards") },
      q.cards.map((c) => h("li", { class: "lu-card lu-card-static" }, h("span", { class: "lu-card-n" }, c.card), h("span", { class: "lu-card-text", dir: "auto" }, c.text)))
    );
  }

  /** A rack nobody here may change: the team's locked rack, a face-up pink rack, a previous attempt. */
  function rackReadonly(view, order, label, answer) {
    return h(
      "ol",
      { class: "lu-rack lu-rack-readonly", dir: "ltr", "data-rack-readonly": true, "aria-label": label },
      order.map((card, i) => {
        const mark = answer ? (answer[i] === card ? "right" : "wrong") : null;
        return h(
          "li",
          { class: `lu-slot${mark ? ` lu-${mark}` : ""}`, "data-slot": i + 1 },
          h("span", { class: "lu-place", "aria-hidden": "true" }, i + 1),
          h(
            "span",
            { class: "lu-card lu-card-static", "data-card": card },
            h("span", { class: "lu-card-n" }, card),
            h("span", { class: "lu-card-text" }, cardText(view, card)),
            mark ? h("span", { class: "lu-mark" }, mark === "right" ? gettext("✓ right") : gettext("✗ wrong")) : null
          )
        );
      })
    );
  }

  function errorBox(error) {
    return h("p", { class: "lu-error", role: "alert" }, error || "");
  }

  function predictionsLine(view) {
    const parts = [];
    for (const team of TEAMS) {
      const t = view.teams[team];
      if (t.prediction != null) parts.push(fmt(gettext("%(team)s predicted %(n)s"), { team: teamLabel(team), n: t.prediction }));
      if (t.bid != null) parts.push(fmt(gettext("%(team)s bid %(n)s"), { team: teamLabel(team), n: t.bid }));
    }
    return parts.length ? h("p", { class: "lu-note lu-claims" }, parts.join(" · ")) : null;
  }

  function starPlaces(view, laid, proposal, interactive, chosenPlace) {
    const at = {};
    for (const c of laid) at[c.position] = c;
    return h(
      "ol",
      { class: "lu-star-places", "data-star-places": true, "aria-label": gettext("The five places") },
      CARDS.map((place) => {
        const card = at[place];
        const proposed = proposal && proposal.kind === "lay" && proposal.position === place ? proposal : null;
        const placeLabel = h("span", { class: "lu-place" }, fmt(gettext("Place %(place)s"), { place }));
        const inner = card
          ? [
              placeLabel,
              h("span", { class: "lu-card-n" }, card.card),
              h("span", { class: "lu-card-text" }, cardText(view, card.card)),
              h("span", { class: "lu-mark" }, card.right ? gettext("✓ right") : gettext("✗ wrong")),
            ]
          : [
              placeLabel,
              proposed ? h("span", { class: "lu-proposed" }, fmt(gettext("card %(card)s?"), { card: proposed.card })) : h("span", { class: "lu-empty" }, gettext("empty")),
            ];
        const cls = `lu-star-place${card ? (card.right ? " lu-right" : " lu-wrong") : ""}${proposed ? " lu-has-proposal" : ""}`;
        if (interactive && !card) {
          return h(
            "li",
            { class: cls },
            h(
              "button",
              {
                type: "button",
                class: `lu-place-button${chosenPlace === place ? " lu-selected" : ""}`,
                "aria-pressed": String(chosenPlace === place),
                "data-place": place,
                "data-fk": `place:${place}`,
              },
              inner
            )
          );
        }
        return h("li", { class: cls, "data-place-laid": card ? place : null }, inner);
      })
    );
  }

  /** A team's answer as its card numbers in its order, each marked right or wrong (the texts are in the
   *  right order just beside it). */
  function resultRack(order, answer, label) {
    return h(
      "ol",
      { class: "lu-result-rack", "aria-label": label },
      order.map((card, i) => {
        const right = answer[i] === card;
        return h(
          "li",
          { class: `lu-result-card ${right ? "lu-right" : "lu-wrong"}`, "data-card": card },
          h("span", { class: "lu-mini-card" }, card),
          h("span", { class: "lu-mark", "aria-hidden": "true" }, right ? "✓" : "✗"),
          h("span", { class: "visually-hidden" }, right ? gettext("right") : gettext("wrong"))
        );
      })
    );
  }

  /** While the answer is on show: when the game goes on (the clock), or that the teacher holds it. */
  function revealNext(view, live) {
    if (!live || view.phase !== "reveal" || !view.reveal) return null;
    if (view.reveal.held)
      return h("p", { class: "lu-reveal-next lu-reveal-held", role: "status" }, gettext("The teacher is holding the answer on screen."));
    return h("p", { class: "lu-reveal-next" }, gettext("The next question starts when the clock runs out."));
  }

  function revealPanel(view, viewerTeam, big, live) {
    const r = view.reveal;
    if (!r) return null;
    const cards = {};
    for (const c of r.question.cards) cards[c.card] = c;
    const answerList = h(
      "ol",
      { class: "lu-answer", "aria-label": gettext("The right order") },
      r.answer.map((card) =>
        h(
          "li",
          { class: "lu-card lu-card-static lu-answer-card" },
          h("span", { class: "lu-card-n" }, card),
          h("span", { class: "lu-card-text" }, cards[card].text),
          h("span", { class: "lu-datum" }, cards[card].display)
        )
      )
    );
    const results = Object.entries(r.results || {}).map(([team, res]) => {
      const lines = [];
      if (res.laid) {
        lines.push(
          res.ended === "forfeit"
            ? gettext("No card laid in time.")
            : fmt(ngettext("%(n)s star card right.", "%(n)s star cards right.", res.right), { n: res.right })
        );
      } else if (res.attempts) {
        res.attempts.forEach((a, i) =>
          lines.push(fmt(gettext("Try %(i)s: %(right)s right, %(wrong)s wrong."), { i: i + 1, right: a.right, wrong: a.wrong }))
        );
      } else {
        lines.push(fmt(ngettext("%(n)s card in the right place.", "%(n)s cards in the right place.", res.right), { n: res.right }));
        if (res.prediction != null) lines.push(fmt(gettext("Predicted %(n)s: %(made)s."), { n: res.prediction, made: res.made ? gettext("made it") : gettext("missed") }));
        if (res.bid != null) lines.push(fmt(gettext("Bid %(n)s: %(made)s."), { n: res.bid, made: res.made ? gettext("made it") : gettext("missed") }));
      }
      return h(
        "div",
        { class: `lu-result lu-result-${team}${team === viewerTeam ? " lu-result-mine" : ""}`, "data-result": team },
        h("div", { class: "lu-result-head" }, teamChip(team), res.order ? resultRack(res.order, r.answer, fmt(gettext("%(team)s's answer"), { team: teamLabel(team) })) : null),
        res.laid && res.laid.length
          ? h(
              "ul",
              { class: "lu-laid" },
              res.laid.map((c) =>
                h("li", { class: c.right ? "lu-right" : "lu-wrong" }, fmt(gettext("Card %(card)s in place %(place)s"), { card: c.card, place: c.position }), " ", c.right ? gettext("✓ right") : gettext("✗ wrong"))
              )
            )
          : null,
        lines.map((line) => h("p", { class: "lu-result-line" }, line))
      );
    });
    const moves = (r.moves || []).map((m) =>
      h("li", null, fmt(gettext("%(team)s moves %(spaces)s (%(why)s)."), { team: teamLabel(m.team), spaces: spaces(m.to - m.from), why: whyMoved(m.why) }))
    );
    return h(
      "section",
      { class: `lu-reveal${big ? " lu-reveal-big" : ""}`, "aria-label": gettext("The answer") },
      h(
        "div",
        { class: "lu-reveal-answer" },
        h(big ? "h2" : "h3", { class: "lu-reveal-title" }, fmt(gettext("The answer: %(heading)s"), { heading: r.question.heading }), " ", h("span", { class: "lu-q-meta" }, h("span", { class: "flip-rtl", "aria-hidden": "true" }, "→"), " ", r.question.order_label)),
        answerList
      ),
      h(
        "div",
        { class: "lu-reveal-side" },
        revealNext(view, live),
        h("div", { class: "lu-results" }, results),
        moves.length ? h("ul", { class: "lu-moves" }, moves) : h("p", { class: "lu-moves lu-note" }, gettext("Nobody moves.")),
        r.explanation ? h("p", { class: "lu-explanation" }, r.explanation) : null,
        r.source ? h("p", { class: "lu-source" }, fmt(gettext("Source: %(source)s"), { source: r.source })) : null
      )
    );
  }

  function winnerPanel(view, viewerTeam, big) {
    if (!view.winner) return null;
    const w = view.winner;
    // Staff screens name the winners; a student's view has no rosters (its own team knows who it is).
    const names = (view.teams[w].members || []).map((m) => m.name).join(", ");
    return h(
      "section",
      { class: `lu-winner lu-winner-${w}${big ? " lu-winner-big" : ""}`, role: "status" },
      h("p", { class: "lu-trophy", "aria-hidden": "true" }, "★"),
      h(big ? "h2" : "h3", null, fmt(gettext("%(team)s wins!"), { team: teamLabel(w) })),
      viewerTeam ? h("p", { class: "lu-winner-you" }, viewerTeam === w ? gettext("Well done, your team got all five right on the 5-space!") : gettext("Good game! Your team will get them next time.")) : null,
      names ? h("p", { class: "lu-winner-names" }, names) : null
    );
  }

  function endedPanel(table, viewerTeam) {
    if (table.status !== "ended") return null;
    return h(
      "section",
      { class: "lu-ended", role: "status" },
      h("h3", null, gettext("The game has ended")),
      h("p", null, viewerTeam ? gettext("Your teacher ended the game. Thank you for playing!") : gettext("The teacher ended the game."))
    );
  }

  function pendingStars(view) {
    if (!view.stars_pending || !view.stars_pending.length) return null;
    return h(
      "p",
      { class: "lu-note lu-next" },
      view.stars_pending.map((s) => fmt(gettext("Next: %(team)s's star turn (space %(n)s)."), { team: teamLabel(s.team), n: s.pos })).join(" ")
    );
  }

  function logList(view) {
    const items = view.log
      .slice()
      .reverse()
      .map((entry) => describe(entry, view))
      .filter(Boolean)
      .map((text) => h("li", null, text));
    return h("details", { class: "lu-log" }, h("summary", null, gettext("What happened")), h("ol", null, items));
  }

  function topBar(view, table, ctx, extra, outerClock) {
    const live = isLive(view, table);
    return h(
      "div",
      { class: "lu-top" },
      extra,
      live ? miniChip(view.mini) : null,
      h("span", { class: "lu-phase" }, live ? phaseTitle(view) : table.status === "ended" ? gettext("Game ended") : gettext("Game over")),
      h("span", { class: "lu-round" }, fmt(gettext("Round %(n)s"), { n: view.round })),
      clock(view, table, ctx, outerClock)
    );
  }

  function publicPhase(view, big) {
    const out = [];
    if (view.phase === "predict" || view.phase === "bid") {
      const rounds = (view.bids && view.bids.rounds) || [];
      if (view.phase === "bid" && rounds.length) {
        const last = rounds[rounds.length - 1];
        out.push(h("p", { class: "lu-note lu-equal" }, fmt(gettext("Both teams bid %(n)s: bid again!"), { n: last.blue })));
      }
      out.push(h("p", { class: "lu-prompt" }, view.phase === "bid" ? gettext("The teams are bidding in secret.") : gettext("The teams are predicting in secret.")));
      out.push(cardList(view));
    } else if (view.phase === "answer") {
      out.push(predictionsLine(view));
      const bidder = view.bids && view.bids.bidder;
      if (bidder && view.teams[bidder].rack) {
        out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s answers face up with a bid of %(n)s."), { team: teamLabel(bidder), n: view.bids.bid })));
        out.push(rackReadonly(view, view.teams[bidder].rack, fmt(gettext("%(team)s's rack"), { team: teamLabel(bidder) })));
      } else {
        out.push(cardList(view));
      }
    } else if (view.phase === "star") {
      out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s's star turn: one card at a time."), { team: teamLabel(view.star.team) })));
      out.push(starPlaces(view, view.star.laid, null, false));
      out.push(cardList(view));
    } else if (view.phase === "final") {
      out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s is on the 5-space: all five right wins!"), { team: teamLabel(view.final.team) })));
      if (view.final.wrong != null)
        out.push(h("p", { class: "lu-note lu-final-wrong" }, fmt(ngettext("First try: %(n)s card wrong. One more try!", "First try: %(n)s cards wrong. One more try!", view.final.wrong), { n: view.final.wrong })));
      out.push(cardList(view));
    } else if (view.phase === "reveal") {
      out.push(revealPanel(view, null, big, true), pendingStars(view));
    }
    return out;
  }

  function teamsBar(view) {
    return h(
      "div",
      { class: "lu-teams" },
      TEAMS.map((team) =>
        h(
          "div",
          { class: `lu-team-box lu-team-box-${team}`, "data-team": team },
          teamChip(team),
          h("span", { class: "lu-team-pos" }, view.teams[team].position >= view.board.final ? gettext("5-space") : fmt(gettext("space %(n)s"), { n: view.teams[team].position })),
          view.teams[team].captain ? h("span", { class: "lu-team-captain" }, fmt(gettext("Captain: %(name)s"), { name: nameOf(view, view.teams[team].captain) })) : null,
          h("span", { class: "lu-team-status" }, teamStatus(view, team))
        )
      )
    );
  }

  /** Both teams' racks and who proposed what (the teacher's eyes only). */
  function teacherDetails(view, compact) {
    const details = view.team_details || {};
    return h(
      "div",
      { class: "lu-details" },
      TEAMS.map((team) => {
        const d = details[team] || {};
        const rows = [];
        if (d.rack) rows.push(h("div", { class: "lu-detail-rack" }, h("span", { class: "lu-detail-label" }, gettext("Rack")), " ", miniRack(view, d.rack), d.rack_by ? h("span", { class: "lu-note" }, " ", fmt(gettext("by %(name)s"), { name: nameOf(view, d.rack_by) })) : null));
        if (d.locked_answer) rows.push(h("div", null, h("span", { class: "lu-detail-label" }, gettext("Locked")), " ", miniRack(view, d.locked_answer)));
        if (d.proposal) rows.push(h("div", null, h("span", { class: "lu-detail-label" }, gettext("Choice")), " ", fmt(gettext("%(n)s by %(name)s"), { n: d.proposal.value, name: nameOf(view, d.proposal.by) })));
        if (d.locked_value != null) rows.push(h("div", null, h("span", { class: "lu-detail-label" }, gettext("Locked")), " ", String(d.locked_value)));
        if (d.proposals && Object.keys(d.proposals).length)
          rows.push(h("div", { class: "lu-note" }, Object.entries(d.proposals).map(([p, v]) => `${nameOf(view, p)} ${v}`).join(", ")));
        if (d.star_proposal)
          rows.push(
            h(
              "div",
              null,
              h("span", { class: "lu-detail-label" }, gettext("Suggested")),
              " ",
              d.star_proposal.kind === "stop"
                ? fmt(gettext("stop (%(name)s)"), { name: nameOf(view, d.star_proposal.by) })
                : fmt(gettext("card %(card)s in place %(place)s (%(name)s)"), { card: d.star_proposal.card, place: d.star_proposal.position, name: nameOf(view, d.star_proposal.by) })
            )
          );
        if (!compact && d.orders && Object.keys(d.orders).length)
          rows.push(
            h(
              "ul",
              { class: "lu-orders" },
              Object.entries(d.orders).map(([p, order]) => h("li", null, h("bdi", null, nameOf(view, p)), ": ", miniRack(view, order)))
            )
          );
        if (d.attempts && d.attempts.length)
          rows.push(h("div", { class: "lu-note" }, d.attempts.map((a, i) => fmt(gettext("try %(i)s: %(wrong)s wrong"), { i: i + 1, wrong: a.wrong })).join(" · ")));
        return h(
          "div",
          { class: `lu-detail lu-detail-${team}`, "data-team-detail": team },
          h("div", { class: "lu-detail-head" }, teamChip(team), " ", h("span", { class: "lu-team-pos" }, view.teams[team].position >= view.board.final ? gettext("5-space") : fmt(gettext("space %(n)s"), { n: view.teams[team].position })), " ", h("span", { class: "lu-team-status" }, teamStatus(view, team))),
          view.teams[team].captain ? h("div", { class: "lu-note" }, fmt(gettext("Captain: %(name)s"), { name: nameOf(view, view.teams[team].captain) })) : null,
          rows
        );
      })
    );
  }

  function miniRack(view, order) {
    return h(
      "span",
      { class: "lu-minirack", title: order.map((c) => `${c}. ${cardText(view, c)}`).join("\n") },
      order.map((c) => h("span", { class: "lu-mini-card" }, c))
    );
  }

  Object.assign(pieces, { teamChip, miniChip, board, questionHead, cardList, rackReadonly, errorBox, predictionsLine });
  Object.assign(pieces, { starPlaces, revealPanel, winnerPanel, endedPanel, pendingStars, logList, topBar });
  Object.assign(pieces, { publicPhase, teamsBar, teacherDetails });
})();
