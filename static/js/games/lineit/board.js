/* Line-it's board: each piece of the screen as elements (cards, the market, your line and hand, the move
 * buttons, the other players, the jackpots, the log, the scores), built from a LineitScene (words.js) with
 * ClassplayUI's h. Pure: no listener and no state here; a control says what it does in data-* attributes
 * (data-card and data-source on a card, data-action on a move button) and input.js acts on them.
 */
(function () {
  "use strict";

  const { h, icon, gettext, ngettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineit");
  const { COLOURS, SYMBOL_OF, pretty, valueNote, suitName, betValue, cardLabel, cardName, nameOf, signed } = pieces;
  const { directionText, lineNumberCount, lineEndCard, logText, myTurn, step, turnText, promptText } = pieces;
  const LOG_SHOWN = 8;

  const SYMBOL_PATHS = {
    heart:
      "M12 21s-7.4-4.5-9.5-9.1C1 8.5 2.9 4.5 6.7 4.5c2.2 0 3.6 1.2 5.3 3.2 1.7-2 3.1-3.2 5.3-3.2 " +
      "3.8 0 5.7 4 4.2 7.4C19.4 16.5 12 21 12 21z",
    leaf: "M20.5 3.5C10.5 3.5 4 8.5 4 15.8c0 1.5.3 2.9.9 4.2 1-3.8 3.5-7.2 8-9.6-3.8 2.7-5.8 5.8-6.6 9.6 " +
      ".9.4 2.1.7 3.4.7 7.2 0 10.8-7.3 10.8-17.2z",
    diamond: "M12 2l8.5 10L12 22 3.5 12z",
    star: "M12 2.5l2.9 6.2 6.6.7-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.7z",
  };

  function symbolSvg(symbol, extraClass) {
    return icon("0 0 24 24", "lineit-symbol " + (extraClass || ""), ["path", { d: SYMBOL_PATHS[symbol] || SYMBOL_PATHS.diamond }]);
  }

  /** One card. `button` makes it a real button (selectable, draggable); otherwise a plain item. */
  function cardEl(card, options) {
    const opts = options || {};
    const isBet = card.kind === "bet";
    const classes = ["lineit-card", isBet ? "lineit-card--bet" : "lineit-card--" + card.colour];
    if (opts.size) classes.push("lineit-card--" + opts.size);
    if (opts.selected) classes.push("is-selected");
    if (opts.extraClass) classes.push(opts.extraClass);
    const note = valueNote(card);
    const inner = [
      h(
        "span",
        { class: "lineit-card__band", "aria-hidden": "true" },
        isBet ? h("span", { class: "lineit-card__bet-word", text: gettext("BET") }) : symbolSvg(card.symbol),
      ),
      // (a face or value with its sign reads "−10" on an Arabic page too, never "10−")
      h("span", { class: "lineit-card__face", dir: "ltr", "aria-hidden": "true", text: isBet ? "+" + betValue(card) : pretty(card.face) }),
      note ? h("span", { class: "lineit-card__value", dir: "ltr", "aria-hidden": "true", text: "= " + pretty(note) }) : null,
    ];
    if (opts.button) {
      return h(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          "aria-label": cardLabel(card),
          "aria-pressed": opts.selected ? "true" : "false",
          "aria-describedby": opts.describedby,
          disabled: opts.disabled,
          dataset: { fk: opts.focusKey, card: card.id, source: opts.source },
        },
        inner,
      );
    }
    // A list item reads its hidden text (an aria-label on a plain <li> is not read everywhere).
    const label = cardLabel(card) + (opts.suffix ? ", " + opts.suffix : "");
    return h(opts.tag || "li", { class: classes.join(" ") }, h("span", { class: "visually-hidden", text: label }), inner);
  }

  function directionEl(line, big) {
    const dir = line.direction;
    return h(
      "span",
      { class: "lineit-dir lineit-dir--" + (dir || "none") + (big ? " lineit-dir--big" : "") },
      h("span", { class: "lineit-dir__arrow", "aria-hidden": "true", text: dir === "up" ? "\u25B2" : dir === "down" ? "\u25BC" : "\u25C6" }),
      " ",
      directionText(dir),
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Pieces of the board
  // ---------------------------------------------------------------------------------------------------

  /** The turn clock: its text when it is stopped or unlimited; a running one is drawn by ctx.countdown
   *  (input.js, after each draw, with clockDeadline). @param {LineitScene} scene @param {boolean} big */
  function clockEl(scene, big) {
    const clock = scene.table.view.clock || {};
    const el = h("span", { class: "lineit-clock" + (big ? " lineit-clock--big" : ""), role: "timer", "aria-live": "off" });
    if (scene.ctx.role === "replay" || scene.table.status !== "playing") return el;
    if (clock.paused && clock.remaining !== null && clock.remaining !== undefined) {
      el.textContent = fmt(gettext("%(seconds)s s left (paused)"), { seconds: Math.ceil(clock.remaining) });
    } else if (!clock.deadline) {
      el.textContent = gettext("No time limit");
    }
    return el;
  }

  /** The deadline the clock counts down to, when it runs. @param {LineitScene} scene */
  function clockDeadline(scene) {
    const clock = scene.table.view.clock || {};
    if (scene.ctx.role === "replay" || scene.table.status !== "playing") return null;
    if (clock.paused && clock.remaining !== null && clock.remaining !== undefined) return null;
    return clock.deadline || null;
  }

  /** @param {LineitScene} scene */
  function statusBar(scene) {
    const view = scene.table.view;
    return h(
      "div",
      { class: "lineit-status" + (myTurn(scene) ? " is-mine" : "") },
      h("p", { class: "lineit-status__turn" }, h("strong", { text: turnText(scene) }), " ", clockEl(scene, false)),
      h(
        "p",
        { class: "lineit-status__facts" },
        view.phase === "over" || scene.table.status !== "playing"
          ? ""
          : view.phase === "final"
            ? gettext("Last plays") + " \u00B7 "
            : fmt(gettext("Round %(round)s"), { round: view.round }) +
              " \u00B7 " +
              fmt(ngettext("%(n)s round left after this one", "%(n)s rounds left after this one", view.rounds_left), { n: view.rounds_left }) +
              " \u00B7 ",
        fmt(gettext("Level %(level)s"), { level: view.level }),
      ),
    );
  }

  /** @param {LineitScene} scene */
  function marketSection(scene, moves) {
    const view = scene.table.view;
    const now = step(scene);
    const canPick = now === "take" && !scene.pending;
    const items = view.market.map((card, index) => {
      const selected = scene.selected && scene.selected.source === "market" && scene.selected.id === card.id;
      if (!canPick) return h("li", {}, cardEl(card, { tag: "div", size: "lg" }));
      return h(
        "li",
        {},
        cardEl(card, {
          button: true,
          size: "lg",
          selected,
          source: "market",
          focusKey: "market:" + card.id,
        }),
        h("span", { class: "lineit-key", "aria-hidden": "true", text: String(index + 1) }),
      );
    });
    return h(
      "section",
      { class: "lineit-market", "aria-labelledby": scene.uid + "-market" },
      h(
        "h3",
        { id: scene.uid + "-market" },
        gettext("Market"),
        " ",
        h("span", { class: "lineit-muted", text: fmt(ngettext("%(n)s card", "%(n)s cards", view.market.length), { n: view.market.length }) }),
      ),
      view.market.length
        ? h("ul", { class: "lineit-cards lineit-cards--market" }, items)
        : h("p", { class: "lineit-muted", text: view.phase === "draft" ? gettext("Everyone has taken a card.") : gettext("The market is closed.") }),
      moves || null,
    );
  }

  /** @param {LineitScene} scene */
  function colourChips(scene, line) {
    const view = scene.table.view;
    const counts = line.colour_counts || {};
    return h(
      "ul",
      { class: "lineit-chips", "aria-label": gettext("Colours in this line (the third card of a colour wins its jackpot)") },
      COLOURS.map((colour) => {
        const jackpot = (view.jackpots || []).find((j) => j.colour === colour) || { count: 0 };
        const n = counts[colour] || 0;
        const label = fmt(gettext("%(suit)s: %(n)s in the line, jackpot %(count)s"), {
          suit: suitName(colour, SYMBOL_OF[colour]),
          n,
          count: jackpot.count,
        });
        return h(
          "li",
          { class: "lineit-chip lineit-chip--" + colour + (n === 2 && jackpot.count ? " is-hot" : "") + (n >= 3 ? " is-done" : ""), title: label },
          symbolSvg(SYMBOL_OF[colour]),
          h("span", { "aria-hidden": "true", text: Math.min(n, 3) + "/3" }),
          h("span", { class: "visually-hidden", text: label }),
        );
      }),
    );
  }

  function betNote(line) {
    if (!line.bet) return null;
    const { bet, cards_after: after } = line.bet;
    const ok = after >= bet;
    return h(
      "p",
      { class: "lineit-bet-note" + (ok ? " is-ok" : "") },
      fmt(gettext("Bet +%(bet)s: %(after)s of %(bet)s number cards after it"), { bet, after }),
      ok ? " \u2714" : "",
    );
  }

  /** What scoring the line now would give: the cards after the first three, and the bet's token. */
  function scorePreview(line) {
    const numbers = lineNumberCount(line);
    if (!line.cards.length) return null;
    const banked = Math.max(0, numbers - 3);
    const values = { n: banked, bet: line.bet && line.bet.bet };
    // Whole sentences, so a translation never has to be glued together.
    let sentence = ngettext("Scoring now banks %(n)s card.", "Scoring now banks %(n)s cards.", banked);
    if (line.bet && line.bet.cards_after >= line.bet.bet) {
      sentence = ngettext(
        "Scoring now banks %(n)s card and wins the bet (+%(bet)s).",
        "Scoring now banks %(n)s cards and wins the bet (+%(bet)s).",
        banked,
      );
    } else if (line.bet) {
      sentence = ngettext(
        "Scoring now banks %(n)s card and loses the bet (\u2212%(bet)s).",
        "Scoring now banks %(n)s cards and loses the bet (\u2212%(bet)s).",
        banked,
      );
    }
    return h("p", { class: "lineit-preview", text: fmt(sentence, values) });
  }

  function lineHint(line) {
    const end = lineEndCard(line);
    if (!line.cards.length) return gettext("Empty: any card starts it.");
    if (!line.direction) {
      return end
        ? fmt(gettext("The next number card sets the direction: higher than %(face)s goes up, lower goes down."), { face: pretty(end.face) })
        : gettext("The next number card starts the numbers of this line.");
    }
    return line.direction === "up"
      ? fmt(gettext("Next card must be higher than %(face)s."), { face: pretty(end.face) })
      : fmt(gettext("Next card must be lower than %(face)s."), { face: pretty(end.face) });
  }

  /** @param {LineitScene} scene */
  function myLineSection(scene, me) {
    const view = scene.table.view;
    const line = me.line;
    const now = step(scene);
    const open = now === "take" || ((now === "after" || now === "final") && !view.turn.played_from_hand);
    return h(
      "section",
      {
        class: "lineit-mine lineit-drop" + (open ? "" : " is-closed"),
        "aria-labelledby": scene.uid + "-line",
        dataset: { drop: "line" },
      },
      h("div", { class: "lineit-mine__head" }, h("h3", { id: scene.uid + "-line" }, gettext("Your line"), " ", directionEl(line, true)), colourChips(scene, line)),
      line.cards.length
        ? h("ol", { class: "lineit-cards lineit-cards--line", dir: "ltr" }, line.cards.map((card) => cardEl(card, { size: "md" })))
        : null,
      h("p", { class: "lineit-hint", text: lineHint(line) }),
      betNote(line),
      scorePreview(line),
    );
  }

  /** @param {LineitScene} scene */
  function handSection(scene) {
    const view = scene.table.view;
    const hand = (view.you && view.you.hand) || [];
    const now = step(scene);
    const canPlay = (now === "after" || now === "final") && !view.turn.played_from_hand && !scene.pending;
    const slots = [];
    for (let i = 0; i < view.hand_limit; i += 1) {
      const card = hand[i];
      if (!card) {
        slots.push(h("li", { class: "lineit-slot", "aria-label": gettext("empty place") }, h("span", { "aria-hidden": "true", text: "\u2013" })));
        continue;
      }
      const selected = scene.selected && scene.selected.source === "hand" && scene.selected.id === card.id;
      slots.push(
        canPlay
          ? h(
              "li",
              {},
              cardEl(card, {
                button: true,
                size: "md",
                selected,
                source: "hand",
                focusKey: "hand:" + card.id,
              }),
              h("span", { class: "lineit-key", "aria-hidden": "true", text: String(i + 1) }),
            )
          : cardEl(card, { size: "md" }),
      );
    }
    const full = hand.length >= view.hand_limit;
    return h(
      "section",
      {
        class: "lineit-hand lineit-drop" + (now === "take" && !full ? "" : " is-closed"),
        "aria-labelledby": scene.uid + "-hand",
        dataset: { drop: "hand" },
      },
      h(
        "h3",
        { id: scene.uid + "-hand" },
        gettext("Your hand"),
        " ",
        h("span", { class: "lineit-muted", text: fmt(gettext("%(n)s of %(max)s"), { n: hand.length, max: view.hand_limit }) }),
      ),
      h("ul", { class: "lineit-cards lineit-cards--hand" }, slots),
    );
  }

  /** @param {LineitScene} scene */
  function actionBar(scene) {
    const view = scene.table.view;
    const now = step(scene);
    const head = [
      h("p", { class: "lineit-prompt", id: scene.uid + "-prompt", text: promptText(scene) }),
      scene.error ? h("p", { class: "lineit-error", text: scene.error }) : null,
    ];
    if (!now) return h("div", { class: "lineit-actions is-waiting" }, head);
    const hand = (view.you && view.you.hand) || [];
    const me = view.players.find((p) => p.id === scene.me);
    const busy = scene.pending;
    const picked = scene.selected;
    const bar = [];
    if (now === "take") {
      const card = picked && picked.source === "market" ? view.market.find((c) => c.id === picked.id) : null;
      const full = hand.length >= view.hand_limit;
      bar.push(
        card ? h("p", { class: "lineit-actions__what", id: scene.uid + "-picked" }, fmt(gettext("Picked: %(card)s. Put it:"), { card: cardName(card) })) : null,
        h(
          "div",
          { class: "lineit-actions__buttons" },
          actionButton(scene, "line", gettext("In my line"), "L", !card || busy),
          actionButton(scene, "hand", full ? gettext("In my hand (full)") : gettext("In my hand"), "H", !card || busy || full),
          full
            ? h(
                "div",
                { class: "lineit-drop lineit-newline", dataset: { drop: "new_line" } },
                actionButton(scene, "new_line", gettext("Score my line, start a new one with it"), "N", !card || busy, "secondary"),
              )
            : null,
        ),
      );
    } else {
      const canPlay = !view.turn.played_from_hand && hand.length;
      const card = picked && picked.source === "hand" ? hand.find((c) => c.id === picked.id) : null;
      if (canPlay && card) {
        bar.push(h("p", { class: "lineit-actions__what", id: scene.uid + "-picked" }, fmt(gettext("Picked from your hand: %(card)s."), { card: cardName(card) })));
      }
      const lineEmpty = !me || !me.line.cards.length;
      bar.push(
        h(
          "div",
          { class: "lineit-actions__buttons" },
          canPlay ? actionButton(scene, "play", gettext("Play it into my line"), "L", !card || busy) : null,
          actionButton(
            scene,
            "score",
            now === "final" ? gettext("Score my line and finish") : gettext("Score my line (ends your turn)"),
            "S",
            busy || (now === "after" && lineEmpty),
            now === "final" ? "" : "secondary",
          ),
          now === "after" ? actionButton(scene, "end", gettext("End my turn"), "E", busy) : null,
        ),
      );
    }
    return h("div", { class: "lineit-actions", role: "group", "aria-label": gettext("Your move"), "aria-busy": busy ? "true" : "false" }, head, bar);
  }

  /** A move button; input.js acts on its data-action (line, hand, new_line, play, score, end).
   *  @param {LineitScene} scene @param {string} key @param {string} label @param {string} shortcut
   *  @param {boolean} disabled @param {string} [variant] */
  function actionButton(scene, key, label, shortcut, disabled, variant) {
    return h(
      "button",
      {
        type: "button",
        class: "lineit-action " + (variant || ""),
        disabled,
        "aria-keyshortcuts": shortcut,
        dataset: { fk: "act:" + key, action: key },
      },
      label,
      " ",
      h("kbd", { "aria-hidden": "true", text: shortcut }),
    );
  }

  function tokensEl(tokens) {
    if (!tokens || !tokens.length) return h("span", { class: "lineit-muted", text: gettext("no bet tokens") });
    return h(
      "span",
      { class: "lineit-tokens" },
      tokens.map((t) =>
        h("span", { class: "lineit-token " + (t > 0 ? "is-plus" : "is-minus"), dir: "ltr", "aria-label": fmt(gettext("bet token %(value)s"), { value: signed(t) }), text: signed(t) }),
      ),
    );
  }

  /** @param {LineitScene} scene */
  function playerCard(scene, player, options) {
    const view = scene.table.view;
    const opts = options || {};
    const turn = view.whose_turn === player.id && view.phase !== "over";
    const isMe = player.id === scene.me;
    return h(
      "li",
      { class: "lineit-player" + (turn ? " is-turn" : "") + (isMe ? " is-me" : "") },
      h(
        "div",
        { class: "lineit-player__head" },
        h(
          "span",
          { class: "lineit-player__name" },
          turn ? h("span", { class: "lineit-turn-mark flip-rtl", "aria-label": gettext("playing now"), text: "\u25B6" }) : null,
          h("bdi", {}, player.name),
          isMe ? " " + gettext("(you)") : "",
          player.bot ? h("span", { class: "lineit-badge", text: gettext("computer") }) : null,
        ),
        h("span", { class: "lineit-player__score", text: fmt(ngettext("%(n)s point", "%(n)s points", player.score), { n: player.score }) }),
      ),
      h(
        "p",
        { class: "lineit-player__facts" },
        // (an empty line has no direction to tell: "Empty line" follows)
        player.line.cards.length ? [directionEl(player.line, false), " \u00B7 "] : null,
        fmt(ngettext("%(n)s card in hand", "%(n)s cards in hand", player.hand_count), { n: player.hand_count }),
        " \u00B7 ",
        fmt(ngettext("%(n)s banked", "%(n)s banked", player.pile_count), { n: player.pile_count }),
        " \u00B7 ",
        tokensEl(player.tokens),
      ),
      opts.noLine
        ? null
        : player.line.cards.length
          ? h(
              "ol",
              { class: "lineit-cards lineit-cards--small", dir: "ltr", "aria-label": fmt(gettext("%(name)s's line"), { name: player.name }) },
              player.line.cards.map((card) => cardEl(card, { size: "sm" })),
            )
          : h("p", { class: "lineit-empty", text: gettext("Empty line") }),
      opts.noLine ? null : betNote(player.line),
    );
  }

  /** @param {LineitScene} scene */
  function jackpotsSection(scene, size) {
    const view = scene.table.view;
    return h(
      "section",
      { class: "lineit-jackpots", "aria-labelledby": scene.uid + "-jackpots" },
      h("h3", { id: scene.uid + "-jackpots" }, gettext("Jackpots")),
      h(
        "ul",
        { class: "lineit-jackpot-list" },
        view.jackpots.map((jackpot) =>
          h(
            "li",
            { class: "lineit-jackpot lineit-jackpot--" + jackpot.colour },
            h(
              "p",
              { class: "lineit-jackpot__head" },
              symbolSvg(jackpot.symbol),
              h("span", { class: "lineit-jackpot__name", text: suitName(jackpot.colour, jackpot.symbol) }),
              h("strong", { class: "lineit-jackpot__count", text: fmt(ngettext("%(n)s card", "%(n)s cards", jackpot.count), { n: jackpot.count }) }),
            ),
            size === "none" || !jackpot.cards.length
              ? null
              : h(
                  "ol",
                  { class: "lineit-cards lineit-cards--tiny", "aria-label": fmt(gettext("Cards under the %(suit)s jackpot"), { suit: suitName(jackpot.colour, jackpot.symbol) }) },
                  jackpot.cards.map((card) => cardEl(card, { size: "xs" })),
                ),
          ),
        ),
      ),
    );
  }

  /** @param {LineitScene} scene */
  function logSection(scene) {
    const view = scene.table.view;
    const entries = (view.log || [])
      .map((entry) => ({ entry, text: logText(entry, view, scene.me) }))
      .filter((item) => item.text)
      .slice(-LOG_SHOWN)
      .reverse();
    return h(
      "section",
      { class: "lineit-log", "aria-labelledby": scene.uid + "-log" },
      h("h3", { id: scene.uid + "-log" }, gettext("What happened")),
      entries.length
        ? h(
            "ol",
            { class: "lineit-log__list" },
            entries.map(({ entry, text }) =>
              h(
                "li",
                { class: "lineit-log__item lineit-log__item--" + entry.type },
                h("span", { text }),
                entry.type === "score" && entry.cards && entry.cards.length
                  ? h(
                      "ol",
                      { class: "lineit-cards lineit-cards--tiny lineit-scored", dir: "ltr", "aria-label": gettext("The scored line, with the values") },
                      entry.cards.map((card) =>
                        (entry.discarded || []).some((c) => c.id === card.id)
                          ? cardEl(card, { size: "xs", extraClass: "is-discarded", suffix: gettext("thrown away") })
                          : cardEl(card, { size: "xs" }),
                      ),
                    )
                  : null,
              ),
            ),
          )
        : h("p", { class: "lineit-muted", text: gettext("Nothing yet.") }),
    );
  }

  /** @param {LineitScene} scene */
  function outcomeSection(scene, big) {
    const view = scene.table.view;
    const outcome = view.outcome;
    const rows = view.players
      .map((p) => ({
        player: p,
        score: outcome ? outcome.scores[p.id] : p.score,
        pile: outcome ? outcome.piles[p.id] : p.pile_count,
        tokens: outcome ? outcome.tokens[p.id] : p.tokens,
      }))
      .sort((a, b) => b.score - a.score);
    const winners = outcome ? outcome.winners : [];
    let headline = gettext("Final scores");
    if (outcome && scene.me !== null) {
      if (winners.includes(scene.me)) headline = winners.length > 1 ? gettext("You share the win!") : gettext("You win!");
      else headline = gettext("Game over: well played!");
    } else if (outcome) {
      headline =
        winners.length > 1
          ? fmt(gettext("Shared win: %(names)s"), { names: winners.map((id) => nameOf(view, id)).join(", ") })
          : fmt(gettext("%(name)s wins!"), { name: nameOf(view, winners[0]) });
    } else {
      headline = gettext("Scores when the game was ended");
    }
    return h(
      "section",
      { class: "lineit-outcome" + (big ? " lineit-outcome--big" : ""), "aria-labelledby": scene.uid + "-outcome" },
      h("h3", { id: scene.uid + "-outcome", text: headline }),
      h(
        "table",
        { class: "lineit-scores" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col", text: gettext("Player") }), h("th", { scope: "col", text: gettext("Cards banked") }), h("th", { scope: "col", text: gettext("Bet tokens") }), h("th", { scope: "col", text: gettext("Score") })),
        ),
        h(
          "tbody",
          {},
          rows.map((row) =>
            h(
              "tr",
              { class: winners.includes(row.player.id) ? "is-winner" : "" },
              h(
                "th",
                { scope: "row" },
                winners.includes(row.player.id) ? h("span", { class: "lineit-crown", "aria-label": gettext("winner"), text: "\u2605 " }) : null,
                h("bdi", {}, row.player.name),
                row.player.id === scene.me ? " " + gettext("(you)") : "",
              ),
              h("td", { text: String(row.pile) }),
              h("td", {}, tokensEl(row.tokens)),
              h("td", { class: "lineit-scores__total", text: String(row.score) }),
            ),
          ),
        ),
      ),
      h("p", { class: "lineit-muted", text: gettext("1 point per banked card, plus or minus the bet tokens.") }),
    );
  }

  function keysHelp() {
    return h(
      "details",
      { class: "lineit-keys" },
      h("summary", { text: gettext("Keyboard") }),
      h(
        "dl",
        {},
        [
          ["1\u20139", gettext("pick a market card (after taking: a hand card)")],
          ["L", gettext("put the picked card in your line / play the picked hand card")],
          ["H", gettext("put the picked card in your hand")],
          ["N", gettext("score your line and start a new one with the picked card")],
          ["S", gettext("score your line")],
          ["E", gettext("end your turn")],
          ["Esc", gettext("drop the pick")],
        ].map(([key, text]) => [h("dt", {}, h("kbd", { text: key })), h("dd", { text })]),
      ),
    );
  }


  Object.assign(pieces, {
    symbolSvg,
    clockDeadline,
    cardEl,
    directionEl,
    tokensEl,
    statusBar,
    marketSection,
    myLineSection,
    handSection,
    actionBar,
    playerCard,
    jackpotsSection,
    logSection,
    outcomeSection,
    keysHelp,
  });
})();
