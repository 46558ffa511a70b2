/* Line Up!'s panels on a student's device: the prediction and bid pickers, the team's rack, the star
 * turn's places and cards, each with the captain's lock-in. Pure, like board.js: each control says what it
 * does in data-* attributes (data-card in [data-rack] or [data-star-hand], data-value in [data-picker],
 * data-place, data-action) and input.js acts on them.
 */
(function () {
  "use strict";

  const { h, gettext, ngettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");
  const { DIE, CARDS, teamLabel, nameOf, cardText } = pieces;
  const { cardList, rackReadonly, predictionsLine, starPlaces } = pieces;

  /** The captain's lock-in (input.js sends it, after this device's own rack moves are acknowledged). */
  function confirmButton(label, enabled) {
    return h(
      "button",
      { type: "button", class: "lu-confirm big", "data-action": "confirm", "data-fk": "confirm", disabled: !enabled },
      label
    );
  }

  function captainNote(view, team) {
    const captain = view.teams[team].captain;
    return h("p", { class: "lu-captain-note" }, fmt(gettext("Only your captain, %(name)s, can lock it in. Talk it over!"), { name: nameOf(view, captain) }));
  }

  function proposalsList(view, proposals, render, counts) {
    const entries = Object.entries(proposals || {});
    // Who suggested what in a small team; in a big one the tally, not forty names.
    const items = entries.length
      ? entries.map(([player, value]) => h("li", null, h("strong", null, h("bdi", null, nameOf(view, player))), ": ", render(value)))
      : Object.entries(counts || {}).map(([value, n]) =>
          h("li", null, h("strong", null, render(Number(value))), ": ", fmt(ngettext("%(n)s suggestion", "%(n)s suggestions", n), { n }))
        );
    if (!items.length) return null;
    return h("ul", { class: "lu-proposals", "aria-label": gettext("Your team's suggestions") }, items);
  }

  function choicePanel(view) {
    const you = view.you;
    const mine = view.my_team;
    const phase = view.phase;
    const can = new Set(you.can);
    const locked = mine.locked_value;
    const bidding = phase === "bid";
    const out = [];
    const rounds = (view.bids && view.bids.rounds) || [];
    if (bidding && rounds.length) {
      const last = rounds[rounds.length - 1];
      out.push(h("p", { class: "lu-note lu-equal" }, fmt(gettext("Both teams bid %(n)s: bid again!"), { n: last.blue })));
    }
    if (locked !== null && locked !== undefined) {
      out.push(
        h(
          "p",
          { class: "lu-status lu-locked" },
          bidding ? fmt(gettext("Your bid is locked in: %(n)s."), { n: locked }) : fmt(gettext("Your prediction is locked in: %(n)s."), { n: locked }),
          " ",
          gettext("Waiting for the other team…")
        )
      );
      out.push(cardList(view));
      return out;
    }
    const mini = view.mini;
    out.push(
      h(
        "p",
        { class: "lu-prompt" },
        !bidding
          ? gettext("How many cards will your team get right? Get at least that many and you move that many.")
          : mini === "tiebreak"
            ? gettext("Tie-break bid: how many can your team get right? The higher bid answers, and wins if it makes it.")
            : gettext("Secret bid: how many can your team get right? The higher bid answers alone, face up.")
      )
    );
    const proposal = mine.proposal;
    // The cards first (you predict from them), then the choice and the lock-in side by side, then who
    // suggested what: on a Chromebook all of it is on screen, whatever the size of the team.
    out.push(cardList(view));
    const row = [];
    row.push(
      h(
        "div",
        { class: "lu-picker", role: "group", "data-picker": phase, "aria-label": bidding ? gettext("Your bid") : gettext("Your prediction") },
        DIE.map((v) =>
          h(
            "button",
            {
              type: "button",
              class: `lu-die${proposal && proposal.value === v ? " lu-chosen" : ""}`,
              "data-value": v,
              "data-fk": `value:${v}`,
              "aria-pressed": String(Boolean(proposal && proposal.value === v)),
              disabled: !can.has(phase),
            },
            String(v)
          )
        )
      )
    );
    if (you.captain) {
      row.push(
        confirmButton(
          proposal
            ? bidding
              ? fmt(gettext("Lock in our bid: %(n)s"), { n: proposal.value })
              : fmt(gettext("Lock in our prediction: %(n)s"), { n: proposal.value })
            : gettext("Choose a number first"),
          can.has("confirm")
        )
      );
    } else {
      row.push(captainNote(view, you.team));
    }
    out.push(h("div", { class: "lu-row lu-choice-row" }, row));
    if (proposal) {
      out.push(
        h(
          "p",
          { class: "lu-team-choice" },
          fmt(gettext("Team choice: %(n)s (suggested by %(name)s)."), { n: proposal.value, name: nameOf(view, proposal.by) })
        )
      );
    }
    out.push(proposalsList(view, mine.proposals, (v) => String(v), mine.proposal_counts));
    out.push(h("p", { class: "lu-help" }, gettext("4 right is impossible: if four cards are in place, so is the fifth.")));
    return out;
  }

  /** The team's rack: one button per card, in place order. @param {LineupScene} scene @param {number[]} order */
  function rackInteractive(scene, order) {
    const view = scene.view;
    const help = h(
      "p",
      { class: "lu-help", id: `${scene.uid}-rack-help` },
      gettext("Drag a card to a new place, or tap two cards to swap them. Keys: arrows move the card, 1-5 sends it to that place, Enter picks it up and swaps.")
    );
    const slots = order.map((card, i) => {
      const selected = scene.state.selected === card;
      const button = h(
        "button",
        {
          type: "button",
          class: `lu-card lu-card-move${selected ? " lu-selected" : ""}`,
          "data-card": card,
          id: `${scene.uid}-card-${card}`, // the morph moves the card's own node to its new place
          "data-fk": `rack:${card}`,
          "aria-pressed": String(selected),
          // The name is what the card shows ("3 The Titanic sinks"), as on every device; where it lies
          // and how to move it are its description.
          "aria-describedby": `${scene.uid}-place-${i + 1} ${help.id}`,
        },
        h("span", { class: "lu-card-n" }, card),
        h("span", { class: "lu-card-text" }, cardText(view, card))
      );
      return h(
        "li",
        { class: "lu-slot", "data-slot": i + 1 },
        h("span", { class: "lu-place", "aria-hidden": "true" }, i + 1),
        h("span", { class: "visually-hidden", id: `${scene.uid}-place-${i + 1}` }, fmt(gettext("Place %(place)s of 5."), { place: i + 1 })),
        button
      );
    });
    return [h("ol", { class: "lu-rack", dir: "ltr", "data-rack": true, "aria-label": gettext("Your team's rack") }, slots), help];
  }

  /** @param {LineupScene} scene */
  function rackPanel(scene) {
    const view = scene.view;
    const you = view.you;
    const mine = view.my_team;
    const can = new Set(you.can);
    const out = [predictionsLine(view)];
    const final = view.phase === "final";
    if (!mine.rack) {
      // Someone else answers: a face-up pink or tie-break rack, or the other team's 5-space.
      if (final) {
        out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s is on the 5-space. If they miss, your team moves 5!"), { team: teamLabel(view.final.team) })));
        if (view.final.wrong != null)
          out.push(h("p", { class: "lu-note" }, fmt(ngettext("First try: %(n)s card wrong.", "First try: %(n)s cards wrong.", view.final.wrong), { n: view.final.wrong })));
        out.push(cardList(view));
        return out;
      }
      const bidder = view.bids && view.bids.bidder;
      if (bidder && view.teams[bidder].rack) {
        out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s bid %(n)s and answers face up. Watch their rack!"), { team: teamLabel(bidder), n: view.bids.bid })));
        out.push(rackReadonly(view, view.teams[bidder].rack, fmt(gettext("%(team)s's rack"), { team: teamLabel(bidder) })));
      } else {
        out.push(cardList(view));
      }
      return out;
    }
    const order = scene.rack || mine.rack;
    if (!can.has("rack")) {
      out.push(h("p", { class: "lu-status lu-locked" }, gettext("Your answer is locked in. Waiting for the answer…")));
      out.push(rackReadonly(view, mine.locked_answer || order, gettext("Your team's locked answer")));
      return out;
    }
    if (final) {
      const attempts = mine.attempts || [];
      if (attempts.length) {
        const wrong = attempts[0].wrong;
        out.push(
          h(
            "p",
            { class: "lu-prompt lu-final-hint" },
            fmt(ngettext("%(n)s card is wrong. Move cards once more, then lock in.", "%(n)s cards are wrong. Move cards once more, then lock in.", wrong), { n: wrong })
          )
        );
        out.push(h("details", { class: "lu-previous" }, h("summary", null, gettext("Your first try")), rackReadonly(view, attempts[0].order, gettext("Your first try"))));
      } else {
        out.push(h("p", { class: "lu-prompt" }, gettext("The 5-space! Put all five cards in order. You will hear how many are wrong and may move cards once more.")));
      }
    } else if (view.mini === "pink" || view.mini === "tiebreak") {
      out.push(h("p", { class: "lu-prompt" }, fmt(gettext("Your team answers with a bid of %(n)s, face up: everyone sees your rack."), { n: view.bids.bid })));
    } else {
      out.push(h("p", { class: "lu-prompt" }, gettext("Put the cards in order on your team's rack.")));
    }
    const [rack, help] = rackInteractive(scene, order);
    out.push(rack);
    // The lock-in sits right under the rack, with who moved it last beside it, and the help under them: on
    // a Chromebook (1366×650) and an iPad either way up, all of it is on screen without scrolling.
    const row = [];
    if (you.captain) {
      const label = final ? ((mine.attempts || []).length ? gettext("Lock in our final answer") : gettext("Check our answer")) : gettext("Lock in our answer");
      row.push(confirmButton(label, can.has("confirm")));
    } else {
      row.push(captainNote(view, you.team));
    }
    if (mine.rack_by) {
      row.push(h("p", { class: "lu-note lu-rack-by" }, fmt(gettext("Last moved by %(name)s"), { name: nameOf(view, mine.rack_by) })));
    }
    out.push(h("div", { class: "lu-row" }, row), help);
    return out;
  }

  /** @param {LineupScene} scene */
  function starPanel(scene) {
    const { view, state } = scene;
    const you = view.you;
    const star = view.star;
    const out = [];
    if (star.team !== you.team) {
      out.push(h("p", { class: "lu-prompt" }, fmt(gettext("%(team)s is on a star space. If they lay a wrong card, your team moves!"), { team: teamLabel(star.team) })));
      out.push(starPlaces(view, star.laid, null, false));
      out.push(cardList(view));
      return out;
    }
    const mine = view.my_team;
    const can = new Set(you.can);
    const proposal = mine.star_proposal;
    const laidCards = new Set(star.laid.map((c) => c.card));
    const rightSoFar = star.laid.length;
    out.push(
      h(
        "p",
        { class: "lu-prompt" },
        rightSoFar
          ? fmt(
              ngettext(
                "%(n)s card right so far. Stop now and move %(n)s, or lay another card (a mistake moves the other team %(m)s).",
                "%(n)s cards right so far. Stop now and move %(n)s, or lay another card (a mistake moves the other team %(m)s).",
                rightSoFar
              ),
              { n: rightSoFar, m: rightSoFar + 1 }
            )
          : gettext("Star space! Choose a card and the place where it belongs. Lay the card you are surest of.")
      )
    );
    out.push(starPlaces(view, star.laid, proposal, can.has("lay"), state.starPlace));
    out.push(
      h(
        "div",
        { class: "lu-star-hand", "data-star-hand": true, role: "group", "aria-label": gettext("Cards not laid yet") },
        CARDS.filter((c) => !laidCards.has(c)).map((c) =>
          h(
            "button",
            {
              type: "button",
              class: `lu-card lu-card-pick${state.starCard === c ? " lu-selected" : ""}`,
              "data-card": c,
              "data-fk": `star:${c}`,
              "aria-pressed": String(state.starCard === c),
              disabled: !can.has("lay"),
            },
            h("span", { class: "lu-card-n" }, c),
            h("span", { class: "lu-card-text" }, cardText(view, c))
          )
        )
      )
    );
    const buttons = [];
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `lu-stop secondary${proposal && proposal.kind === "stop" ? " lu-chosen" : ""}`,
          "data-action": "stop",
          "data-fk": "stop",
          disabled: !can.has("stop"),
        },
        rightSoFar ? fmt(gettext("Suggest: stop and move %(n)s"), { n: rightSoFar }) : gettext("Stop (lay a card first)")
      )
    );
    if (proposal) {
      out.push(
        h(
          "p",
          { class: "lu-team-choice" },
          proposal.kind === "stop"
            ? fmt(gettext("Team choice: stop (suggested by %(name)s)."), { name: nameOf(view, proposal.by) })
            : fmt(gettext("Team choice: card %(card)s in place %(place)s (suggested by %(name)s)."), {
                card: proposal.card,
                place: proposal.position,
                name: nameOf(view, proposal.by),
              })
        )
      );
    }
    if (you.captain) {
      const label = !proposal
        ? gettext("Choose a card and place, or stop")
        : proposal.kind === "stop"
          ? fmt(gettext("Stop and move %(n)s"), { n: rightSoFar })
          : fmt(gettext("Lay card %(card)s in place %(place)s"), { card: proposal.card, place: proposal.position });
      buttons.push(confirmButton(label, can.has("confirm")));
    } else {
      buttons.push(captainNote(view, you.team));
    }
    out.push(h("div", { class: "lu-row lu-star-buttons" }, buttons));
    return out;
  }

  Object.assign(pieces, { choicePanel, rackPanel, starPanel });
})();
