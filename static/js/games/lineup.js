/* Line Up! game screen (docs/frontend.md): one table's view drawn for one viewer.
 *
 * Roles: "player" (a student's device: the team's rack, prediction and bid pickers, the star-space flow,
 * the 5-space rearrangement), "teacher" (compact on the console: both teams' progress and proposals),
 * "projector" (large, public information only) and "replay" (the teacher's view, full size).
 *
 * Stable hooks (used by browser tests; keep them):
 *   [data-rack] [data-card="1".."5"]   the team's rack: one <button> per card, in place order
 *   [data-slot="1".."5"]                the rack's places
 *   [data-picker] [data-value="1|2|3|5"]  prediction / bid choices
 *   [data-action="confirm"]             the captain's lock-in (answer, prediction, bid, star step)
 *   [data-star-hand] [data-card]        star turn: the cards not laid yet
 *   [data-star-places] [data-place]     star turn: the five places
 *   [data-action="stop"]                star turn: propose to stop
 *   [data-phase], [data-mini]           on the root element: the engine's phase and mini-game
 *
 * Rack keys: arrow keys move the focused card one place; Home/End to the first/last place; 1-5 move it to
 * that place; Enter or Space picks a card up, then Enter or Space on another card swaps the two; Escape
 * puts it back. With a mouse, pen or finger: drag a card to a place, or tap two cards to swap them.
 */
(function () {
  "use strict";

  const TEAMS = ["blue", "yellow"];
  const DIE = [1, 2, 3, 5];
  const CARDS = [1, 2, 3, 4, 5];
  const DRAG_THRESHOLD = 8;
  const RACK_GAP_MS = 125;

  // The shared builders and translation shim (static/js/games/common.js, loaded first): the catalog from
  // ctx on every render, English without one. Its interpolate fills named placeholders.
  const { h, gettext, ngettext, pgettext, interpolate: fmt, useCatalog, registerGame } = window.ClassplayUI;

  const memories = new WeakMap();

  function memoryOf(container) {
    let memory = memories.get(container);
    if (!memory) {
      memory = {
        lastLog: null, // the log number last announced
        questionKey: null,
        selected: null, // rack: the card picked up (tap or Enter) for a swap
        starCard: null, // star turn: the card chosen before its place
        starPlace: null, // star turn: the place chosen before its card
        pending: null, // rack: our order not yet acknowledged {key, order}
        inflight: false,
        queued: null,
        error: null,
        drag: null,
        deferred: null,
        last: null, // [table, ctx] of the last render
        rackBy: null,
        rackSeen: null,
        afterRack: [], // actions waiting until our rack moves are acknowledged (a lock-in)
      };
      memories.set(container, memory);
    }
    return memory;
  }

  // ----------------------------------------------------------------------------------------------
  // Words
  // ----------------------------------------------------------------------------------------------

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

  // ----------------------------------------------------------------------------------------------
  // Shared pieces
  // ----------------------------------------------------------------------------------------------

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

  function clock(view, table, ctx) {
    if (ctx.outerClock || ctx.role === "replay") return null; // the page shows it, or there is none to show
    const el = h("span", { class: "lu-clock", "data-countdown": true, "aria-label": gettext("Time left") });
    const live = table.status === "playing" && !view.over;
    const c = view.clock || {};
    if (live && c.paused && c.remaining != null) {
      if (typeof ctx.countdown === "function") ctx.countdown(el, null);
      const s = Math.max(0, Math.round(c.remaining));
      el.textContent = fmt(gettext("%(time)s (paused)"), { time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` });
    } else if (typeof ctx.countdown === "function") {
      ctx.countdown(el, live ? c.deadline : null);
    }
    return el;
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

  function errorBox(memory) {
    return h("p", { class: "lu-error", role: "alert" }, memory.error || "");
  }

  function send(memory, ctx, action, onDone) {
    memory.error = null;
    const promise = Promise.resolve(ctx.act(action));
    promise.then(
      (ack) => onDone && onDone(true, ack),
      (err) => {
        memory.error = (err && err.message) || gettext("That did not work. Try again.");
        if (ctx.announce) ctx.announce(memory.error);
        if (onDone) onDone(false);
        rerender(memory);
      }
    );
    return promise;
  }

  function rerender(memory) {
    if (memory.last && !memory.drag) {
      const [container, table, ctx] = memory.last;
      render(container, table, ctx);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // The rack (player, answering)
  // ----------------------------------------------------------------------------------------------

  function moveCard(order, card, toIndex) {
    const next = order.filter((c) => c !== card);
    next.splice(Math.max(0, Math.min(4, toIndex)), 0, card);
    return next;
  }

  function swapCards(order, a, b) {
    const next = order.slice();
    const i = next.indexOf(a);
    const j = next.indexOf(b);
    next[i] = b;
    next[j] = a;
    return next;
  }

  // The rack is sent on every move, one message in flight at a time (the latest order waits its turn).
  // Until a view at least as new as the acknowledgement arrives, this device shows its own order: the ack
  // may come before the new view, and a quick second move must not start from the old rack.
  function sendRack(memory, ctx, order) {
    memory.pending = { key: memory.questionKey, order, ackSeq: null };
    if (memory.inflight) {
      memory.queued = order;
      return;
    }
    memory.inflight = true;
    // At most one rack message every RACK_GAP_MS: a held arrow key must not trip the server's rate limit.
    const wait = Math.max(0, (memory.lastSent || 0) + RACK_GAP_MS - Date.now());
    const host = memory.last && memory.last[0];
    const go = () => {
      if (host) delete host.dataset.rackWaiting;
      memory.lastSent = Date.now();
      const latest = memory.queued || order;
      memory.queued = null;
      send(memory, ctx, { type: "rack", order: latest }, done);
    };
    const done = (ok, ack) => {
      memory.inflight = false;
      if (memory.queued) {
        const next = memory.queued;
        memory.queued = null;
        sendRack(memory, ctx, next);
        return;
      }
      if (ok && ack && typeof ack.seq === "number" && memory.pending) memory.pending.ackSeq = ack.seq;
      else memory.pending = null;
      const waiting = memory.afterRack.splice(0);
      waiting.forEach((fn) => fn());
      rerender(memory);
    };
    if (wait > 0) {
      if (host) host.dataset.rackWaiting = "1"; // tests wait for it; nothing to see
      setTimeout(go, wait);
    } else go();
  }

  function setRack(memory, ctx, order, said) {
    sendRack(memory, ctx, order);
    memory.selected = null;
    if (said && ctx.announce) ctx.announce(said);
    rerender(memory);
  }

  function rackInteractive(view, ctx, memory, order) {
    const help = h(
      "p",
      { class: "lu-help", id: `lu-rack-help-${memory.uid}` },
      gettext("Drag a card to a new place, or tap two cards to swap them. Keys: arrows move the card, 1-5 sends it to that place, Enter picks it up and swaps.")
    );
    const slots = order.map((card, i) => {
      const selected = memory.selected === card;
      const button = h(
        "button",
        {
          type: "button",
          class: `lu-card lu-card-move${selected ? " lu-selected" : ""}`,
          "data-card": card,
          "data-focus": `rack:${card}`,
          "aria-pressed": String(selected),
          // The name is what the card shows ("3 The Titanic sinks"), as on every device; where it lies
          // and how to move it are its description.
          "aria-describedby": `lu-place-${memory.uid}-${i + 1} ${help.id}`,
        },
        h("span", { class: "lu-card-n" }, card),
        h("span", { class: "lu-card-text" }, cardText(view, card))
      );
      button.addEventListener("click", (event) => {
        if (memory.suppressClick) {
          memory.suppressClick = false;
          event.preventDefault();
          return;
        }
        pickOrSwap(view, ctx, memory, order, card);
      });
      button.addEventListener("keydown", (event) => rackKey(event, view, ctx, memory, order, card));
      button.addEventListener("pointerdown", (event) => dragStart(event, ctx, memory, order, card));
      return h(
        "li",
        { class: "lu-slot", "data-slot": i + 1 },
        h("span", { class: "lu-place", "aria-hidden": "true" }, i + 1),
        h("span", { class: "visually-hidden", id: `lu-place-${memory.uid}-${i + 1}` }, fmt(gettext("Place %(place)s of 5."), { place: i + 1 })),
        button
      );
    });
    return [h("ol", { class: "lu-rack", dir: "ltr", "data-rack": true, "aria-label": gettext("Your team's rack") }, slots), help];
  }

  function pickOrSwap(view, ctx, memory, order, card) {
    if (memory.selected === null || !order.includes(memory.selected)) {
      memory.selected = card;
      if (ctx.announce) ctx.announce(fmt(gettext("Card %(card)s picked up. Choose the card to swap it with."), { card }));
      rerender(memory);
    } else if (memory.selected === card) {
      memory.selected = null;
      if (ctx.announce) ctx.announce(fmt(gettext("Card %(card)s put back."), { card }));
      rerender(memory);
    } else {
      const other = memory.selected;
      setRack(memory, ctx, swapCards(order, other, card), fmt(gettext("Cards %(a)s and %(b)s swapped."), { a: other, b: card }));
    }
  }

  function rackKey(event, view, ctx, memory, order, card) {
    const index = order.indexOf(card);
    let to = null;
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = index - 1;
    else if (event.key === "ArrowRight" || event.key === "ArrowDown") to = index + 1;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = 4;
    else if (/^[1-5]$/.test(event.key)) to = Number(event.key) - 1;
    else if (event.key === "Escape" && memory.selected !== null) {
      event.preventDefault();
      memory.selected = null;
      rerender(memory);
      return;
    } else return;
    event.preventDefault();
    if (to < 0 || to > 4 || to === index) return;
    setRack(memory, ctx, moveCard(order, card, to), fmt(gettext("Card %(card)s moved to place %(place)s."), { card, place: to + 1 }));
  }

  // Pointer dragging (mouse, pen and touch alike). A render arriving mid-drag waits until the drop.
  function dragStart(event, ctx, memory, order, card) {
    if (event.button !== 0 || memory.drag) return;
    const el = event.currentTarget;
    const rack = el.closest("[data-rack]");
    memory.drag = { card, el, rack, order, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false, target: null };
    try {
      el.setPointerCapture(event.pointerId);
    } catch (_e) {
      /* the pointer may be gone already */
    }
    const move = (e) => dragMove(e, memory);
    const up = (e) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      dragEnd(e, ctx, memory);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  }

  function dragMove(event, memory) {
    const d = memory.drag;
    if (!d || event.pointerId !== d.id) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moving) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.moving = true;
      d.el.classList.add("lu-dragging");
    }
    event.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px)`;
    let best = null;
    let bestDistance = Infinity;
    for (const slot of d.rack.querySelectorAll("[data-slot]")) {
      const r = slot.getBoundingClientRect();
      const distance = Math.hypot(event.clientX - (r.left + r.width / 2), event.clientY - (r.top + r.height / 2));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = slot;
      }
      slot.classList.remove("lu-drop-target");
    }
    if (best) best.classList.add("lu-drop-target");
    d.target = best ? Number(best.dataset.slot) - 1 : null;
  }

  function dragEnd(event, ctx, memory) {
    const d = memory.drag;
    memory.drag = null;
    if (!d || !d.moving) return; // a tap: the click handler picks the card up
    memory.suppressClick = true;
    setTimeout(() => {
      memory.suppressClick = false;
    }, 0);
    if (memory.deferred) {
      memory.last = memory.deferred; // a newer view arrived during the drag
      memory.deferred = null;
    }
    const from = d.order.indexOf(d.card);
    if (event.type !== "pointercancel" && d.target !== null && d.target !== from) {
      const place = d.target + 1;
      setRack(memory, ctx, moveCard(d.order, d.card, d.target), fmt(gettext("Card %(card)s moved to place %(place)s."), { card: d.card, place }));
    } else {
      rerender(memory);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // The player's device
  // ----------------------------------------------------------------------------------------------

  function confirmButton(label, enabled, onClick) {
    return h(
      "button",
      { type: "button", class: "lu-confirm big", "data-action": "confirm", "data-focus": "confirm", disabled: !enabled, onclick: onClick },
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

  function choicePanel(view, ctx, memory) {
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
              "data-focus": `value:${v}`,
              "aria-pressed": String(Boolean(proposal && proposal.value === v)),
              disabled: !can.has(phase),
              onclick: () => send(memory, ctx, { type: phase, value: v }),
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
          can.has("confirm"),
          () => send(memory, ctx, { type: "confirm" })
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

  function predictionsLine(view) {
    const parts = [];
    for (const team of TEAMS) {
      const t = view.teams[team];
      if (t.prediction != null) parts.push(fmt(gettext("%(team)s predicted %(n)s"), { team: teamLabel(team), n: t.prediction }));
      if (t.bid != null) parts.push(fmt(gettext("%(team)s bid %(n)s"), { team: teamLabel(team), n: t.bid }));
    }
    return parts.length ? h("p", { class: "lu-note lu-claims" }, parts.join(" · ")) : null;
  }

  function rackPanel(view, ctx, memory) {
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
    const pending = memory.pending && memory.pending.key === memory.questionKey ? memory.pending.order : null;
    const order = pending || mine.rack;
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
    const [rack, help] = rackInteractive(view, ctx, memory, order);
    out.push(rack);
    // The lock-in sits right under the rack, with who moved it last beside it, and the help under them: on
    // a Chromebook (1366×650) and an iPad either way up, all of it is on screen without scrolling.
    const row = [];
    if (you.captain) {
      const label = final ? ((mine.attempts || []).length ? gettext("Lock in our final answer") : gettext("Check our answer")) : gettext("Lock in our answer");
      const lockIn = () => send(memory, ctx, { type: "confirm" });
      // A lock-in waits for this device's own rack moves, so the order the captain sees is the one locked.
      row.push(confirmButton(label, can.has("confirm"), () => (memory.inflight ? memory.afterRack.push(lockIn) : lockIn())));
    } else {
      row.push(captainNote(view, you.team));
    }
    if (mine.rack_by) {
      row.push(h("p", { class: "lu-note lu-rack-by" }, fmt(gettext("Last moved by %(name)s"), { name: nameOf(view, mine.rack_by) })));
    }
    out.push(h("div", { class: "lu-row" }, row), help);
    return out;
  }

  function starPlaces(view, laid, proposal, interactive, onPlace, chosenPlace) {
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
                "data-focus": `place:${place}`,
                onclick: () => onPlace(place),
              },
              inner
            )
          );
        }
        return h("li", { class: cls, "data-place-laid": card ? place : null }, inner);
      })
    );
  }

  function starPanel(view, ctx, memory) {
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
    if (memory.starCard !== null && laidCards.has(memory.starCard)) memory.starCard = null;
    if (memory.starPlace !== null && star.laid.some((c) => c.position === memory.starPlace)) memory.starPlace = null;
    // A card and a place make a suggestion, chosen in either order.
    const suggest = (card, place) => {
      memory.starCard = null;
      memory.starPlace = null;
      send(memory, ctx, { type: "lay", card, position: place });
      if (ctx.announce) ctx.announce(fmt(gettext("Suggested: card %(card)s in place %(place)s."), { card, place }));
    };
    const choosePlace = (place) => {
      if (memory.starCard !== null) return suggest(memory.starCard, place);
      memory.starPlace = memory.starPlace === place ? null : place;
      if (memory.starPlace !== null && ctx.announce) ctx.announce(fmt(gettext("Place %(place)s: now choose the card for it."), { place }));
      rerender(memory);
    };
    const chooseCard = (card) => {
      if (memory.starPlace !== null) return suggest(card, memory.starPlace);
      memory.starCard = memory.starCard === card ? null : card;
      if (memory.starCard !== null && ctx.announce) ctx.announce(fmt(gettext("Card %(card)s: now choose its place."), { card }));
      rerender(memory);
    };
    out.push(starPlaces(view, star.laid, proposal, can.has("lay"), choosePlace, memory.starPlace));
    out.push(
      h(
        "div",
        { class: "lu-star-hand", "data-star-hand": true, role: "group", "aria-label": gettext("Cards not laid yet") },
        CARDS.filter((c) => !laidCards.has(c)).map((c) =>
          h(
            "button",
            {
              type: "button",
              class: `lu-card lu-card-pick${memory.starCard === c ? " lu-selected" : ""}`,
              "data-card": c,
              "data-focus": `star:${c}`,
              "aria-pressed": String(memory.starCard === c),
              disabled: !can.has("lay"),
              onclick: () => chooseCard(c),
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
          "data-focus": "stop",
          disabled: !can.has("stop"),
          onclick: () => send(memory, ctx, { type: "stop" }),
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
      buttons.push(confirmButton(label, can.has("confirm"), () => send(memory, ctx, { type: "confirm" })));
    } else {
      buttons.push(captainNote(view, you.team));
    }
    out.push(h("div", { class: "lu-row lu-star-buttons" }, buttons));
    return out;
  }

  // ----------------------------------------------------------------------------------------------
  // The reveal and the winner (every role)
  // ----------------------------------------------------------------------------------------------

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

  function isLive(view, table) {
    return table.status === "playing" && !view.over;
  }

  function topBar(view, table, ctx, extra) {
    const live = isLive(view, table);
    return h(
      "div",
      { class: "lu-top" },
      extra,
      live ? miniChip(view.mini) : null,
      h("span", { class: "lu-phase" }, live ? phaseTitle(view) : table.status === "ended" ? gettext("Game ended") : gettext("Game over")),
      h("span", { class: "lu-round" }, fmt(gettext("Round %(n)s"), { n: view.round })),
      clock(view, table, ctx)
    );
  }

  // ----------------------------------------------------------------------------------------------
  // Layouts per role
  // ----------------------------------------------------------------------------------------------

  function playerScreen(table, ctx, memory) {
    const view = table.view;
    const you = view.you;
    if (!you) {
      // Not seated at this table (e.g. joined late): watch what the class screen shows.
      const watch = projectorScreen(table, ctx);
      watch.classList.replace("lu-projector", "lu-device");
      watch.prepend(h("p", { class: "lu-note lu-watching" }, gettext("You are watching this game.")));
      return watch;
    }
    const live = isLive(view, table);
    const badge = [teamChip(you.team), you.captain && live ? h("span", { class: "lu-captain" }, h("span", { "aria-hidden": "true" }, "★ "), gettext("You are the captain")) : null];
    const body = [];
    if (!live) {
      body.push(winnerPanel(view, you.team, false), endedPanel(table, you.team), revealPanel(view, you.team, false, false));
    } else if (view.phase === "reveal") {
      body.push(revealPanel(view, you.team, false, true), pendingStars(view));
    } else if (view.phase === "predict" || view.phase === "bid") {
      if (view.my_team.captain) body.push(choicePanel(view, ctx, memory));
      else body.push(h("p", { class: "lu-prompt" }, gettext("The other team is choosing.")), cardList(view));
    } else if (view.phase === "answer" || view.phase === "final") {
      body.push(rackPanel(view, ctx, memory));
    } else if (view.phase === "star") {
      body.push(starPanel(view, ctx, memory));
    }
    return h(
      "div",
      { class: `lu lu-device lu-team-${you.team}${live ? "" : " lu-not-live"}` },
      topBar(view, table, ctx, badge),
      live ? h("p", { class: "lu-mini-line" }, miniLine(view)) : null,
      board(view, "small"),
      view.phase !== "reveal" && live ? questionHead(view, true) : null,
      h("div", { class: "lu-action" }, body),
      errorBox(memory),
      logList(view)
    );
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

  function projectorScreen(table, ctx) {
    const view = table.view;
    const live = isLive(view, table);
    return h(
      "div",
      { class: `lu lu-projector${live ? "" : " lu-not-live"}` },
      h("div", { class: "lu-top-row" }, topBar(view, table, ctx, null), live ? h("p", { class: "lu-mini-line" }, miniLine(view)) : null),
      board(view, "large"),
      teamsBar(view),
      !live
        ? [winnerPanel(view, null, true), endedPanel(table, null), revealPanel(view, null, true, false)]
        : [view.phase !== "reveal" ? questionHead(view, true) : null, publicPhase(view, true)]
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

  /** The console's hold on the answer: keep it on every screen, then go on when the class is ready. */
  function revealControls(view, table, ctx, memory) {
    const can = new Set(view.teacher_can || []);
    if (ctx.role !== "teacher" || !isLive(view, table) || !can.size) return null;
    const held = Boolean(view.reveal && view.reveal.held);
    return h(
      "div",
      { class: "lu-reveal-controls", role: "group", "aria-label": gettext("The answer on show") },
      held
        ? h("p", { class: "lu-reveal-next lu-reveal-held" }, gettext("The teacher is holding the answer on screen."))
        : h(
            "button",
            { type: "button", class: "secondary small", "data-action": "hold", "data-focus": "hold", onclick: () => send(memory, ctx, { type: "hold" }) },
            gettext("Hold the answer")
          ),
      can.has("continue")
        ? h(
            "button",
            { type: "button", class: "small", "data-action": "continue", "data-focus": "continue", onclick: () => send(memory, ctx, { type: "continue" }) },
            gettext("Next question")
          )
        : null
    );
  }

  function teacherScreen(table, ctx, memory) {
    const view = table.view;
    const over = !isLive(view, table);
    if (ctx.compact) {
      return h(
        "div",
        { class: `lu lu-console${over ? " lu-not-live" : ""}` },
        topBar(view, table, ctx, null),
        board(view, "tiny"),
        view.question && !over ? h("p", { class: "lu-console-q" }, h("strong", null, view.question.heading), " · ", view.question.order_label) : null,
        over
          ? h("p", { class: "lu-status lu-game-over" }, view.winner ? fmt(gettext("%(team)s wins!"), { team: teamLabel(view.winner) }) : gettext("The teacher ended the game."))
          : null,
        revealControls(view, table, ctx, memory),
        errorBox(memory),
        teacherDetails(view, true),
        pendingStars(view)
      );
    }
    return h(
      "div",
      { class: "lu lu-teacher-full" },
      topBar(view, table, ctx, null),
      h("p", { class: "lu-mini-line" }, miniLine(view)),
      board(view, "large"),
      over ? [winnerPanel(view, null, false), endedPanel(table, null)] : null,
      revealControls(view, table, ctx, memory),
      view.phase !== "reveal" && !over ? questionHead(view, true) : null,
      over ? null : publicPhase(view, false),
      over ? revealPanel(view, null, false, false) : null,
      teacherDetails(view, false),
      logList(view)
    );
  }

  // ----------------------------------------------------------------------------------------------
  // Focus, announcements, the entry point
  // ----------------------------------------------------------------------------------------------

  function announceNews(view, ctx, memory, role) {
    const words = [];
    // A teammate's rack move is not in the public log: say it on the team's devices.
    if (role === "player" && view.my_team && view.my_team.rack && view.you) {
      const by = view.my_team.rack_by;
      const rack = view.my_team.rack.join(",");
      if (by && by !== view.you.id && memory.rackSeen !== null && rack !== memory.rackSeen) {
        words.push(fmt(gettext("%(name)s moved the cards: %(order)s."), { name: nameOf(view, by), order: view.my_team.rack.join(", ") }));
      }
      memory.rackSeen = rack;
    } else {
      memory.rackSeen = null;
    }
    const log = view.log || [];
    const newest = log.length ? log[log.length - 1].n : 0;
    if (memory.lastLog === null) {
      // The first picture: say where we are, not the whole history.
      memory.lastLog = newest;
      if (role === "player" && view.phase && !view.over) words.push(`${miniName(view.mini)}. ${phaseTitle(view)}.`);
    } else {
      const fresh = log.filter((entry) => entry.n > memory.lastLog);
      memory.lastLog = Math.max(memory.lastLog, newest);
      for (const entry of fresh) words.push(describe(entry, view));
    }
    const text = words.filter(Boolean).join(" ");
    if (text && ctx.announce) ctx.announce(text);
  }

  // The projector shows the whole table at once: when it is taller than the screen below the page's own
  // header, it is drawn smaller (CSS zoom re-flows it, so long cards take fewer lines), never cut.
  const PROJECTOR_MIN_ZOOM = 0.5;

  function fitProjector(screen) {
    if (!screen.isConnected) return;
    screen.style.zoom = "";
    const card = screen.closest(".table-card");
    const style = card ? getComputedStyle(card) : null;
    const below = style ? parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) : 0;
    const available = window.innerHeight - screen.getBoundingClientRect().top - below - 8;
    const fits = () => screen.getBoundingClientRect().height <= available + 0.5;
    let zoom = 1;
    if (!fits()) {
      // The largest zoom that fits (a smaller zoom also re-flows the text into fewer lines).
      let low = PROJECTOR_MIN_ZOOM;
      let high = 1;
      for (let i = 0; i < 8; i++) {
        const mid = (low + high) / 2;
        screen.style.zoom = String(mid);
        if (fits()) low = mid;
        else high = mid;
      }
      zoom = low;
      screen.style.zoom = String(zoom);
    }
    screen.dataset.zoom = zoom.toFixed(3);
  }

  window.addEventListener("resize", () => {
    // Fitted at once, so the resized window shows the right size in its next frame.
    document.querySelectorAll(".lu-projector").forEach(fitProjector);
  });
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(() => document.querySelectorAll(".lu-projector").forEach(fitProjector));
  }

  let uid = 0;

  function render(container, table, ctx) {
    useCatalog(ctx);
    const memory = memoryOf(container);
    if (!memory.uid) memory.uid = ++uid;
    if (memory.drag && memory.drag.moving) {
      memory.deferred = [container, table, ctx];
      return;
    }
    memory.drag = null; // a press that had not become a drag yet: its card is about to be replaced
    memory.last = [container, table, ctx];
    const view = table.view || {};
    const key = `${table.table}:${view.question_serial}:${view.phase}:${view.final ? view.final.attempt : ""}`;
    if (key !== memory.questionKey) {
      memory.questionKey = key;
      memory.selected = null;
      memory.starCard = null;
      memory.starPlace = null;
      memory.error = null;
    }
    const pending = memory.pending;
    if (pending && pending.ackSeq !== null && table.seq >= pending.ackSeq) memory.pending = null;
    // A page controller that draws the table's countdown itself (session.js puts one in the card's
    // header) needs no second one from us.
    const card = container.closest("[data-table-id]");
    const outer = card && Array.from(card.querySelectorAll(".countdown")).find((el) => !container.contains(el));
    ctx = Object.assign({}, ctx, { outerClock: Boolean(outer) });
    const active = document.activeElement;
    const focusKey = active && container.contains(active) ? active.getAttribute("data-focus") : null;
    let screen;
    const role = ctx.role;
    if (role === "player") screen = playerScreen(table, ctx, memory);
    else if (role === "projector") screen = projectorScreen(table, ctx);
    else screen = teacherScreen(table, role === "replay" ? Object.assign({}, ctx, { compact: false }) : ctx, memory);
    screen.setAttribute("data-phase", view.phase || "");
    screen.setAttribute("data-mini", view.mini || "");
    screen.setAttribute("data-role", role);
    screen.setAttribute("data-seq", table.seq);
    container.replaceChildren(screen);
    if (role === "projector") fitProjector(screen);
    if (focusKey) {
      const again = container.querySelector(`[data-focus="${focusKey}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
    announceNews(view, ctx, memory, role);
  }

  // ----------------------------------------------------------------------------------------------
  // Practice rack (the how-to-play page): the real screen on a question the page describes, no server
  // ----------------------------------------------------------------------------------------------

  function mountTry(host) {
    useCatalog({});
    const items = Array.from(host.querySelectorAll("[data-try-card]"));
    const answer = host.dataset.answer.split(",").map(Number);
    const board = { name: "standard", zones: [{ colour: "purple", first: 1, last: 8 }], stars: [], final: 25 };
    const cards = items.map((li) => ({ card: Number(li.dataset.tryCard), text: li.textContent.trim(), display: li.dataset.display }));
    const question = {
      id: "practice",
      heading: host.dataset.heading,
      order_label: host.dataset.orderLabel,
      direction: "desc",
      level: 1,
      subject: "",
      tags: [],
      cards: cards.map((c) => ({ card: c.card, text: c.text })),
    };
    const screen = h("div", { class: "lu-try-screen" });
    const again = h("button", { type: "button", class: "secondary lu-try-again", hidden: true }, gettext("Try again"));
    host.append(screen, again);
    let order = [1, 2, 3, 4, 5];
    let checked = null;
    let seq = 1;
    const team = (pos) => ({ members: [{ id: "you", name: gettext("You"), bot: null }], position: pos, zone: "purple", on_star: false, playing: true, captain: "you", locked: false });
    const view = () => ({
      game: "lineup",
      title: "Line Up!",
      phase: checked === null ? "answer" : "reveal",
      mini: "purple",
      round: 1,
      board,
      teams: { blue: team(checked || 0), yellow: Object.assign(team(0), { members: [], captain: null }) },
      turn: { teams: checked === null ? ["blue"] : [], players: [] },
      question,
      question_serial: seq,
      stars_pending: [],
      winner: null,
      over: false,
      log: [],
      clock: { deadline: null, remaining: null, paused: false },
      viewer: "player",
      you: { id: "you", name: gettext("You"), team: "blue", captain: true, can: checked === null ? ["confirm", "rack"] : [] },
      my_team: { team: "blue", captain: "you", rack: order, rack_by: null, orders: {}, my_order: order },
      reveal:
        checked === null
          ? undefined
          : {
              question: Object.assign({}, question, { cards }),
              answer,
              explanation: host.dataset.explanation,
              source: host.dataset.source,
              mini: "purple",
              results: { blue: { order, right: checked } },
              moves: checked ? [{ team: "blue", from: 0, to: checked, why: "purple" }] : [],
            },
    });
    const ctx = {
      role: "player",
      player: "you",
      compact: false,
      act(action) {
        if (action.type === "rack") order = action.order.slice();
        if (action.type === "confirm") {
          checked = order.filter((card, i) => card === answer[i]).length;
          again.hidden = false;
        }
        seq += 1;
        setTimeout(draw, 0);
        return Promise.resolve({ seq, duplicate: false });
      },
      countdown() {},
      serverNow: () => Date.now() / 1000,
      announce(text) {
        host.querySelector("[data-try-live]").textContent = text;
      },
      draft: () => null,
      saveDraft() {},
      gettext: window.gettext,
      ngettext: window.ngettext,
      interpolate: window.interpolate,
      session: null,
    };
    function draw() {
      render(screen, { table: 0, number: 1, seq, status: "playing", view: view() }, ctx);
    }
    again.addEventListener("click", () => {
      order = [1, 2, 3, 4, 5];
      checked = null;
      seq += 1;
      again.hidden = true;
      draw();
      const first = screen.querySelector("[data-rack] [data-card]");
      if (first) first.focus();
    });
    draw();
  }

  registerGame("lineup", { render });
  const tries = () => document.querySelectorAll("[data-lineup-try]").forEach(mountTry);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tries);
  else tries();
})();
