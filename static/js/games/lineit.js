/* Line-it: the game screen (docs/frontend.md is the contract, docs/games/lineit.md the rules).
 *
 * One module draws one table for one viewer:
 *   role "player"     the student's device: market, own line and hand, the other players, jackpots, log,
 *                     and the moves (tap a card then a destination, drag and drop, or the keyboard);
 *   role "teacher"    compact on the console (one small card per table), full board otherwise;
 *   role "projector"  large: whose turn, the clock, every player's score and line, the four jackpots;
 *   role "replay"     the full board of one step, without moves or clock.
 *
 * Everything drawn comes from the view the server sent (deny-by-default): another player's hand is only a
 * count, values of cards appear only when the view carries them (after scoring, at the end). Whether a
 * card fits a line is never computed here: the student decides, the server refuses with the reason.
 *
 * Keys on the student's device (also on the How to play page): 1-9 pick a market card (or, after the
 * draft, a hand card); L puts the picked card in your line (or plays the picked hand card); H puts it in
 * your hand; N scores your line and starts a new one with it; S scores your line; E ends your turn;
 * Escape drops the pick.
 */
(function () {
  "use strict";

  const GAME = "lineit";
  const SYMBOL_PATHS = {
    heart:
      "M12 21s-7.4-4.5-9.5-9.1C1 8.5 2.9 4.5 6.7 4.5c2.2 0 3.6 1.2 5.3 3.2 1.7-2 3.1-3.2 5.3-3.2 " +
      "3.8 0 5.7 4 4.2 7.4C19.4 16.5 12 21 12 21z",
    leaf: "M20.5 3.5C10.5 3.5 4 8.5 4 15.8c0 1.5.3 2.9.9 4.2 1-3.8 3.5-7.2 8-9.6-3.8 2.7-5.8 5.8-6.6 9.6 " +
      ".9.4 2.1.7 3.4.7 7.2 0 10.8-7.3 10.8-17.2z",
    diamond: "M12 2l8.5 10L12 22 3.5 12z",
    star: "M12 2.5l2.9 6.2 6.6.7-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.7z",
  };
  const COLOURS = ["red", "green", "blue", "yellow"];
  const DRAG_THRESHOLD = 8;
  const LOG_SHOWN = 8;

  // The shared builders and translation shim (static/js/games/common.js, loaded first); local names, so
  // `makemessages -d djangojs` finds every string. Its interpolate fills named placeholders.
  const { h, icon, gettext, ngettext, interpolate: fmt, useCatalog, registerGame, layoutWall, localDecimals } = window.ClassplayUI;

  // ---------------------------------------------------------------------------------------------------
  // Small helpers
  // ---------------------------------------------------------------------------------------------------

  function symbolSvg(symbol, extraClass) {
    return icon("0 0 24 24", "lineit-symbol " + (extraClass || ""), ["path", { d: SYMBOL_PATHS[symbol] || SYMBOL_PATHS.diamond }]);
  }

  /** A face or value with real minus signs (easier to read than hyphens on a card). */
  // A face or value as the page's language writes it: a true minus sign, its decimal separator ("2,5").
  const pretty = (text) => localDecimals(text).replace(/-/g, "\u2212");

  /** "15/2" -> "7.5", "1/3" -> null: the exact decimal of a stored fraction, when it has one. */
  function exactDecimal(value) {
    const [top, bottom = "1"] = String(value).split("/");
    let n;
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

  /** The value to print under a card's face (null when the face already says it). */
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

  /** How a card is read aloud. */
  function cardLabel(card) {
    // The name starts with the card's visible text ("BET +3"), as speech recognition users say it.
    if (card.kind === "bet") return fmt(gettext("Bet +%(bet)s card"), { bet: betValue(card) });
    const note = valueNote(card);
    const base = fmt(gettext("%(face)s, %(suit)s"), { face: pretty(card.face), suit: suitName(card.colour, card.symbol) });
    return note ? fmt(gettext("%(card)s, value %(value)s"), { card: base, value: pretty(note) }) : base;
  }

  /** A card's short name in sentences: "3/4 (red heart)", "Bet +4". */
  function cardName(card) {
    if (!card) return gettext("a card");
    if (card.kind === "bet") return fmt(gettext("Bet +%(bet)s"), { bet: betValue(card) });
    return fmt(gettext("%(face)s (%(suit)s)"), { face: pretty(card.face), suit: suitName(card.colour, card.symbol) });
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
          onclick: opts.onclick,
          onpointerdown: opts.onpointerdown,
        },
        inner,
      );
    }
    // A list item reads its hidden text (an aria-label on a plain <li> is not read everywhere).
    const label = cardLabel(card) + (opts.suffix ? ", " + opts.suffix : "");
    return h(opts.tag || "li", { class: classes.join(" ") }, h("span", { class: "visually-hidden", text: label }), inner);
  }

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
  // Per-container memory (selection, pending move, last error, what was announced)
  // ---------------------------------------------------------------------------------------------------

  const memory = new WeakMap();
  let press = null; // the pointer press that may become a drag (one at a time on a page)

  function stateFor(container) {
    let st = memory.get(container);
    if (!st) {
      st = {
        container,
        selected: null, // {source: "market"|"hand", id}
        pending: false,
        error: null,
        lastN: null,
        lastTurnKey: null,
        dragging: false,
        deferred: false,
        suppressClick: false,
      };
      memory.set(container, st);
      // Keys work while focus is on the table, or nowhere in particular (after a drag, or a redraw that
      // removed the focused button); never while another control of the page has the focus.
      document.addEventListener("keydown", (event) => {
        if (!container.isConnected) return;
        const target = event.target;
        const nowhere = !target || target === document.body || target === document.documentElement || target.tagName === "MAIN";
        if (nowhere || container.contains(target)) onKey(st, event);
      });
    }
    return st;
  }

  function myTurn(st) {
    const view = st.table.view;
    return st.ctx.role === "player" && st.me !== null && view.whose_turn === st.me && st.table.status === "playing" && view.phase !== "over";
  }

  function paused(st) {
    return ((st.ctx && st.ctx.session) || {}).status === "paused";
  }

  /** The step of the viewer's own turn when they may act now (not while the session is paused). */
  function step(st) {
    return myTurn(st) && !paused(st) ? st.table.view.turn.step : null;
  }

  // ---------------------------------------------------------------------------------------------------
  // Moves
  // ---------------------------------------------------------------------------------------------------

  function send(st, action) {
    if (st.pending) return;
    st.pending = true;
    st.error = null;
    draw(st);
    let sent;
    try {
      sent = Promise.resolve(st.ctx.act(action));
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      () => {
        st.pending = false;
        st.selected = null;
        draw(st);
      },
      (error) => {
        st.pending = false;
        st.error = (error && error.message) || gettext("That move was not accepted.");
        st.ctx.announce(st.error);
        draw(st);
        const again = st.container.querySelector("[data-fk='" + focusKeyOfSelection(st) + "']");
        if (again) again.focus();
      },
    );
  }

  function focusKeyOfSelection(st) {
    return st.selected ? st.selected.source + ":" + st.selected.id : "";
  }

  function take(st, to, cardId) {
    const id = cardId || (st.selected && st.selected.source === "market" ? st.selected.id : null);
    if (step(st) !== "take") return;
    if (!id) {
      st.error = gettext("First pick a card from the market.");
      st.ctx.announce(st.error);
      draw(st);
      return;
    }
    st.selected = { source: "market", id };
    send(st, { type: "take", card: id, to });
  }

  function play(st, cardId) {
    const id = cardId || (st.selected && st.selected.source === "hand" ? st.selected.id : null);
    const now = step(st);
    if (now !== "after" && now !== "final") return;
    if (!id) {
      st.error = gettext("First pick a card from your hand.");
      st.ctx.announce(st.error);
      draw(st);
      return;
    }
    st.selected = { source: "hand", id };
    send(st, { type: "play", card: id });
  }

  /** The pick survives a reload or a dropped connection within the same step of the same turn. */
  function draftKey(st) {
    const view = st.table.view;
    return ["lineit", st.table.table, view.round, view.phase, view.whose_turn, view.turn ? view.turn.step : ""].join(":");
  }

  function select(st, source, id) {
    if (st.pending) return;
    const same = st.selected && st.selected.source === source && st.selected.id === id;
    st.selected = same ? null : { source, id };
    if (st.ctx.saveDraft) st.ctx.saveDraft(draftKey(st), st.selected);
    st.error = null;
    draw(st);
    const view = st.table.view;
    if (st.selected) {
      const pool = source === "market" ? view.market : (view.you && view.you.hand) || [];
      const card = pool.find((c) => c.id === id);
      const full = ((view.you && view.you.hand) || []).length >= view.hand_limit;
      let text;
      if (source === "hand") text = fmt(gettext("Picked %(card)s from your hand. Play it into your line?"), { card: cardName(card) });
      else if (full) text = fmt(gettext("Picked %(card)s. Put it in your line, or score your line and start a new one with it."), { card: cardName(card) });
      else text = fmt(gettext("Picked %(card)s. Put it in your line or in your hand."), { card: cardName(card) });
      st.ctx.announce(text);
    }
  }

  function onKey(st, event) {
    if (st.ctx.role !== "player" || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const now = step(st);
    if (!now || st.pending) return;
    const view = st.table.view;
    const key = event.key.toLowerCase();
    let handled = true;
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      const pool = now === "take" ? view.market : (view.you && view.you.hand) || [];
      const source = now === "take" ? "market" : "hand";
      if (index < pool.length && (source === "market" || !view.turn.played_from_hand)) {
        select(st, source, pool[index].id);
        const el = st.container.querySelector("[data-fk='" + source + ":" + pool[index].id + "']");
        if (el) el.focus();
      } else handled = false;
    } else if (key === "l") {
      if (now === "take") take(st, "line");
      else play(st);
    } else if (key === "h" && now === "take") take(st, "hand");
    else if (key === "n" && now === "take") take(st, "new_line");
    else if (key === "s" && now !== "take") scoreLine(st);
    else if (key === "e" && now === "after") send(st, { type: "end" });
    else if (key === "escape" && st.selected) {
      st.selected = null;
      draw(st);
    } else handled = false;
    if (handled) event.preventDefault();
  }

  function scoreLine(st) {
    const now = step(st);
    if (now !== "after" && now !== "final") return;
    send(st, { type: "score" });
  }

  // Drag and drop with pointer events (mouse, touch and pen alike). A press that moves more than a few
  // pixels becomes a drag; dropping on a zone makes the move; a press that does not move is a tap (select).

  function startPress(st, source, id, event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    if (st.pending) return;
    press = { st, source, id, x: event.clientX, y: event.clientY, el: event.currentTarget, ghost: null };
  }

  function zoneAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const zone = el && el.closest("[data-drop]");
    return zone && !zone.classList.contains("is-closed") ? zone : null;
  }

  // While a card is dragged near the top or bottom of the window, the page scrolls (a hand or a line below
  // the fold on a small tablet is still in reach).
  const EDGE = 48;
  function autoScroll() {
    if (!press || !press.ghost) return;
    const y = press.lastY;
    const step = y < EDGE ? -(EDGE - y) / 3 : y > window.innerHeight - EDGE ? (y - (window.innerHeight - EDGE)) / 3 : 0;
    if (step) window.scrollBy(0, step);
    press.scrolling = step ? window.requestAnimationFrame(autoScroll) : null;
  }

  window.addEventListener("pointermove", (event) => {
    if (!press) return;
    press.lastY = event.clientY;
    if (!press.ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
      const { st, el } = press;
      const rect = el.getBoundingClientRect();
      press.ghost = el.cloneNode(true);
      press.ghost.classList.add("lineit-ghost");
      press.ghost.removeAttribute("data-fk");
      press.ghost.setAttribute("aria-hidden", "true");
      press.ghost.style.width = rect.width + "px";
      press.ghost.style.height = rect.height + "px";
      press.offsetX = press.x - rect.left;
      press.offsetY = press.y - rect.top;
      document.body.append(press.ghost);
      st.dragging = true;
      st.container.classList.add("lineit-dragging", "lineit-dragging--" + press.source);
    }
    press.ghost.style.left = event.clientX - press.offsetX + "px";
    press.ghost.style.top = event.clientY - press.offsetY + "px";
    const zone = zoneAt(event.clientX, event.clientY);
    for (const el of press.st.container.querySelectorAll("[data-drop].is-over")) if (el !== zone) el.classList.remove("is-over");
    if (zone) zone.classList.add("is-over");
    if (!press.scrolling) autoScroll();
    event.preventDefault();
  });

  function endPress(event, cancelled) {
    if (!press) return;
    const { st, source, id, ghost, scrolling } = press;
    press = null;
    if (scrolling) window.cancelAnimationFrame(scrolling);
    if (!ghost) return; // a tap: the click handler selects
    ghost.remove();
    st.dragging = false;
    st.suppressClick = true;
    setTimeout(() => {
      st.suppressClick = false;
    }, 0);
    st.container.classList.remove("lineit-dragging", "lineit-dragging--market", "lineit-dragging--hand");
    const zone = cancelled ? null : zoneAt(event.clientX, event.clientY);
    for (const el of st.container.querySelectorAll("[data-drop].is-over")) el.classList.remove("is-over");
    const drop = zone && st.container.contains(zone) ? zone.dataset.drop : null;
    if (st.deferred) {
      st.deferred = false;
      draw(st);
    }
    if (!drop) return;
    if (source === "market" && ["line", "hand", "new_line"].includes(drop)) take(st, drop, id);
    else if (source === "hand" && drop === "line") play(st, id);
  }

  // A finger that drags a card must not also scroll the page or start the browser's own gestures (on iPad
  // Safari touch-action alone does not stop them; on Chrome a drag the page did not claim left the next
  // taps without their click): while a press may become a drag, its touch moves belong to the card. A tap
  // (no move) keeps its click.
  window.addEventListener(
    "touchmove",
    (event) => {
      if (press && event.cancelable) event.preventDefault();
    },
    { passive: false },
  );
  window.addEventListener("pointerup", (event) => endPress(event, false));
  window.addEventListener("pointercancel", (event) => endPress(event, true));

  // ---------------------------------------------------------------------------------------------------
  // Pieces of the board
  // ---------------------------------------------------------------------------------------------------

  function clockEl(st, big) {
    const clock = st.table.view.clock || {};
    const el = h("span", { class: "lineit-clock" + (big ? " lineit-clock--big" : ""), role: "timer", "aria-live": "off" });
    st.clockEl = el;
    st.clockDeadline = null;
    if (st.ctx.role === "replay" || st.table.status !== "playing") return el;
    if (clock.paused && clock.remaining !== null && clock.remaining !== undefined) {
      el.textContent = fmt(gettext("%(seconds)s s left (paused)"), { seconds: Math.ceil(clock.remaining) });
    } else if (clock.deadline) {
      st.clockDeadline = clock.deadline;
    } else {
      el.textContent = gettext("No time limit");
    }
    return el;
  }

  function turnText(st) {
    const view = st.table.view;
    if (st.table.status === "ended" && view.phase !== "over") return gettext("The teacher ended this game.");
    if (view.phase === "over") return gettext("Game over");
    if (!view.turn) return "";
    if (myTurn(st)) return gettext("Your turn");
    return fmt(gettext("%(name)s's turn"), { name: nameOf(view, view.whose_turn) });
  }

  function promptText(st) {
    const view = st.table.view;
    const now = step(st);
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
    if (view.phase === "over" || st.table.status !== "playing") return "";
    if (paused(st)) return gettext("The game is paused. Wait for your teacher.");
    // (never "Wait for Aisha K..": a name may end with an initial's dot)
    return fmt(gettext("%(name)s is playing. Wait for your turn."), { name: nameOf(view, view.whose_turn) });
  }

  function statusBar(st) {
    const view = st.table.view;
    return h(
      "div",
      { class: "lineit-status" + (myTurn(st) ? " is-mine" : "") },
      h("p", { class: "lineit-status__turn" }, h("strong", { text: turnText(st) }), " ", clockEl(st, false)),
      h(
        "p",
        { class: "lineit-status__facts" },
        view.phase === "over" || st.table.status !== "playing"
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

  function marketSection(st, moves) {
    const view = st.table.view;
    const now = step(st);
    const canPick = now === "take" && !st.pending;
    const items = view.market.map((card, index) => {
      const selected = st.selected && st.selected.source === "market" && st.selected.id === card.id;
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
          onclick: () => {
            if (!st.suppressClick) select(st, "market", card.id);
          },
          onpointerdown: (event) => startPress(st, "market", card.id, event),
        }),
        h("span", { class: "lineit-key", "aria-hidden": "true", text: String(index + 1) }),
      );
    });
    return h(
      "section",
      { class: "lineit-market", "aria-labelledby": st.uid + "-market" },
      h(
        "h3",
        { id: st.uid + "-market" },
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

  function colourChips(st, line) {
    const view = st.table.view;
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

  function myLineSection(st, me) {
    const view = st.table.view;
    const line = me.line;
    const now = step(st);
    const open = now === "take" || ((now === "after" || now === "final") && !view.turn.played_from_hand);
    return h(
      "section",
      {
        class: "lineit-mine lineit-drop" + (open ? "" : " is-closed"),
        "aria-labelledby": st.uid + "-line",
        dataset: { drop: "line" },
      },
      h("div", { class: "lineit-mine__head" }, h("h3", { id: st.uid + "-line" }, gettext("Your line"), " ", directionEl(line, true)), colourChips(st, line)),
      line.cards.length
        ? h("ol", { class: "lineit-cards lineit-cards--line", dir: "ltr" }, line.cards.map((card) => cardEl(card, { size: "md" })))
        : null,
      h("p", { class: "lineit-hint", text: lineHint(line) }),
      betNote(line),
      scorePreview(line),
    );
  }

  function handSection(st) {
    const view = st.table.view;
    const hand = (view.you && view.you.hand) || [];
    const now = step(st);
    const canPlay = (now === "after" || now === "final") && !view.turn.played_from_hand && !st.pending;
    const slots = [];
    for (let i = 0; i < view.hand_limit; i += 1) {
      const card = hand[i];
      if (!card) {
        slots.push(h("li", { class: "lineit-slot", "aria-label": gettext("empty place") }, h("span", { "aria-hidden": "true", text: "\u2013" })));
        continue;
      }
      const selected = st.selected && st.selected.source === "hand" && st.selected.id === card.id;
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
                onclick: () => {
                  if (!st.suppressClick) select(st, "hand", card.id);
                },
                onpointerdown: (event) => startPress(st, "hand", card.id, event),
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
        "aria-labelledby": st.uid + "-hand",
        dataset: { drop: "hand" },
      },
      h(
        "h3",
        { id: st.uid + "-hand" },
        gettext("Your hand"),
        " ",
        h("span", { class: "lineit-muted", text: fmt(gettext("%(n)s of %(max)s"), { n: hand.length, max: view.hand_limit }) }),
      ),
      h("ul", { class: "lineit-cards lineit-cards--hand" }, slots),
    );
  }

  function actionBar(st) {
    const view = st.table.view;
    const now = step(st);
    const head = [
      h("p", { class: "lineit-prompt", id: st.uid + "-prompt", text: promptText(st) }),
      st.error ? h("p", { class: "lineit-error", text: st.error }) : null,
    ];
    if (!now) return h("div", { class: "lineit-actions is-waiting" }, head);
    const hand = (view.you && view.you.hand) || [];
    const me = view.players.find((p) => p.id === st.me);
    const busy = st.pending;
    const picked = st.selected;
    const bar = [];
    if (now === "take") {
      const card = picked && picked.source === "market" ? view.market.find((c) => c.id === picked.id) : null;
      const full = hand.length >= view.hand_limit;
      bar.push(
        card ? h("p", { class: "lineit-actions__what", id: st.uid + "-picked" }, fmt(gettext("Picked: %(card)s. Put it:"), { card: cardName(card) })) : null,
        h(
          "div",
          { class: "lineit-actions__buttons" },
          actionButton(st, "line", gettext("In my line"), "L", !card || busy, () => take(st, "line")),
          actionButton(st, "hand", full ? gettext("In my hand (full)") : gettext("In my hand"), "H", !card || busy || full, () => take(st, "hand")),
          full
            ? h(
                "div",
                { class: "lineit-drop lineit-newline", dataset: { drop: "new_line" } },
                actionButton(st, "new_line", gettext("Score my line, start a new one with it"), "N", !card || busy, () => take(st, "new_line"), "secondary"),
              )
            : null,
        ),
      );
    } else {
      const canPlay = !view.turn.played_from_hand && hand.length;
      const card = picked && picked.source === "hand" ? hand.find((c) => c.id === picked.id) : null;
      if (canPlay && card) {
        bar.push(h("p", { class: "lineit-actions__what", id: st.uid + "-picked" }, fmt(gettext("Picked from your hand: %(card)s."), { card: cardName(card) })));
      }
      const lineEmpty = !me || !me.line.cards.length;
      bar.push(
        h(
          "div",
          { class: "lineit-actions__buttons" },
          canPlay ? actionButton(st, "play", gettext("Play it into my line"), "L", !card || busy, () => play(st)) : null,
          actionButton(
            st,
            "score",
            now === "final" ? gettext("Score my line and finish") : gettext("Score my line (ends your turn)"),
            "S",
            busy || (now === "after" && lineEmpty),
            () => scoreLine(st),
            now === "final" ? "" : "secondary",
          ),
          now === "after" ? actionButton(st, "end", gettext("End my turn"), "E", busy, () => send(st, { type: "end" })) : null,
        ),
      );
    }
    return h("div", { class: "lineit-actions", role: "group", "aria-label": gettext("Your move"), "aria-busy": busy ? "true" : "false" }, head, bar);
  }

  function actionButton(st, key, label, shortcut, disabled, onclick, variant) {
    return h(
      "button",
      {
        type: "button",
        class: "lineit-action " + (variant || ""),
        disabled,
        "aria-keyshortcuts": shortcut,
        dataset: { fk: "act:" + key, action: key },
        onclick,
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

  function playerCard(st, player, options) {
    const view = st.table.view;
    const opts = options || {};
    const turn = view.whose_turn === player.id && view.phase !== "over";
    const isMe = player.id === st.me;
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

  function jackpotsSection(st, size) {
    const view = st.table.view;
    return h(
      "section",
      { class: "lineit-jackpots", "aria-labelledby": st.uid + "-jackpots" },
      h("h3", { id: st.uid + "-jackpots" }, gettext("Jackpots")),
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

  function logSection(st) {
    const view = st.table.view;
    const entries = (view.log || [])
      .map((entry) => ({ entry, text: logText(entry, view, st.me) }))
      .filter((item) => item.text)
      .slice(-LOG_SHOWN)
      .reverse();
    return h(
      "section",
      { class: "lineit-log", "aria-labelledby": st.uid + "-log" },
      h("h3", { id: st.uid + "-log" }, gettext("What happened")),
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

  function outcomeSection(st, big) {
    const view = st.table.view;
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
    if (outcome && st.me !== null) {
      if (winners.includes(st.me)) headline = winners.length > 1 ? gettext("You share the win!") : gettext("You win!");
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
      { class: "lineit-outcome" + (big ? " lineit-outcome--big" : ""), "aria-labelledby": st.uid + "-outcome" },
      h("h3", { id: st.uid + "-outcome", text: headline }),
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
                row.player.id === st.me ? " " + gettext("(you)") : "",
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

  // ---------------------------------------------------------------------------------------------------
  // The four layouts
  // ---------------------------------------------------------------------------------------------------

  function playerLayout(st) {
    const view = st.table.view;
    const me = view.players.find((p) => p.id === st.me);
    const others = view.players.filter((p) => p.id !== st.me);
    const over = view.phase === "over" || st.table.status !== "playing";
    const main = h(
      "div",
      { class: "lineit-main" },
      over ? outcomeSection(st, false) : null,
      over ? null : marketSection(st, actionBar(st)),
      me && !over ? h("div", { class: "lineit-mine-row" }, myLineSection(st, me), handSection(st)) : null,
      over ? null : keysHelp(),
    );
    const side = h(
      "div",
      { class: "lineit-side" },
      h(
        "section",
        { class: "lineit-others", "aria-labelledby": st.uid + "-others" },
        h("h3", { id: st.uid + "-others", text: gettext("Other players") }),
        h("ul", { class: "lineit-players" }, others.map((p) => playerCard(st, p))),
      ),
      jackpotsSection(st, "full"),
      logSection(st),
    );
    return [statusBar(st), h("div", { class: "lineit-layout" }, main, side)];
  }

  function boardLayout(st) {
    const view = st.table.view;
    const over = view.phase === "over" || st.table.status !== "playing";
    return [
      statusBar(st),
      over ? outcomeSection(st, false) : null,
      h(
        "div",
        { class: "lineit-layout" },
        h(
          "div",
          { class: "lineit-main" },
          over ? null : marketSection(st),
          h(
            "section",
            { class: "lineit-others", "aria-labelledby": st.uid + "-players" },
            h("h3", { id: st.uid + "-players", text: gettext("Players") }),
            h("ul", { class: "lineit-players" }, view.players.map((p) => playerCard(st, p))),
          ),
        ),
        h("div", { class: "lineit-side" }, jackpotsSection(st, "full"), logSection(st)),
      ),
    ];
  }

  function compactLayout(st) {
    const view = st.table.view;
    const over = view.phase === "over";
    return [
      h(
        "p",
        { class: "lineit-compact__status" },
        h("strong", { text: turnText(st) }),
        h(
          "span",
          { class: "lineit-muted" },
          " \u00B7 ",
          view.phase === "final" ? gettext("Last plays") : fmt(gettext("Round %(round)s"), { round: view.round }),
          " \u00B7 ",
          fmt(gettext("Level %(level)s"), { level: view.level }),
        ),
      ),
      h(
        "div",
        { class: "lineit-compact__scroll" },
        h(
        "table",
        { class: "lineit-compact__table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col", text: gettext("Player") }),
            h("th", { scope: "col", text: gettext("Line") }),
            h("th", { scope: "col", text: gettext("Hand") }),
            h("th", { scope: "col", text: gettext("Banked") }),
            h("th", { scope: "col", text: gettext("Bets") }),
            h("th", { scope: "col", text: gettext("Score") }),
          ),
        ),
        h(
          "tbody",
          {},
          view.players.map((p) => {
            const end = lineEndCard(p.line);
            const winner = over && view.outcome && view.outcome.winners.includes(p.id);
            return h(
              "tr",
              { class: (view.whose_turn === p.id ? "is-turn" : "") + (winner ? " is-winner" : "") },
              h(
                "th",
                { scope: "row" },
                view.whose_turn === p.id ? h("span", { class: "lineit-turn-mark flip-rtl", "aria-label": gettext("playing now"), text: "\u25B6" }) : null,
                view.whose_turn === p.id ? " " : null,
                winner ? h("span", { class: "lineit-crown", "aria-label": gettext("winner"), text: "\u2605 " }) : null,
                h("bdi", {}, p.name),
                p.bot ? h("span", { class: "lineit-badge", text: gettext("computer") }) : null,
              ),
              h(
                "td",
                { class: "lineit-compact__line" },
                h("span", { class: "lineit-dir__arrow lineit-dir--" + (p.line.direction || "none"), "aria-hidden": "true", text: p.line.direction === "up" ? "\u25B2" : p.line.direction === "down" ? "\u25BC" : "\u25C6" }),
                h("span", { class: "visually-hidden", text: directionText(p.line.direction) + ", " }),
                " ",
                h("span", { "aria-hidden": "true", text: String(p.line.cards.length) }),
                h("span", { class: "visually-hidden", text: fmt(ngettext("%(n)s card", "%(n)s cards", p.line.cards.length), { n: p.line.cards.length }) }),
                end ? h("span", { class: "lineit-muted" }, " \u00B7 ", h("span", { class: "visually-hidden", text: gettext("ends with") + " " }), h("bdi", { dir: "ltr" }, pretty(end.face))) : null,
                p.line.bet ? h("span", { class: "lineit-compact__bet" }, " \u00B7 ", fmt(gettext("bet %(after)s/%(bet)s"), p.line.bet)) : null,
              ),
              h("td", { text: String(p.hand_count) }),
              h("td", { text: String(p.pile_count) }),
              h("td", {}, h("bdi", { dir: "ltr" }, signed(tokenSum(p.tokens)))),
              h("td", { class: "lineit-scores__total", text: String(p.score) }),
            );
          }),
        ),
      ),
      ),
      h(
        "ul",
        { class: "lineit-jackpot-strip", "aria-label": gettext("Jackpots") },
        view.jackpots.map((j) =>
          h(
            "li",
            { class: "lineit-chip lineit-chip--" + j.colour, title: suitName(j.colour, j.symbol) },
            symbolSvg(j.symbol),
            h("span", { "aria-hidden": "true", text: String(j.count) }),
            h("span", { class: "visually-hidden", text: fmt(gettext("%(suit)s jackpot: %(n)s"), { suit: suitName(j.colour, j.symbol), n: j.count }) }),
          ),
        ),
      ),
    ];
  }

  /** The projector shows every table of the class at once: cards of 19 x 19 ems, and the CSS sizes the
   *  text to the screen (lineit.css, .lineit-wall), so 1 to 8 tables (or more) fit without scrolling or
   *  cutting. */
  const WALL = { width: 19, height: 19, wallClass: "lineit-wall", prefix: "li" };

  function projectorLayout(st) {
    const view = st.table.view;
    requestAnimationFrame(() => layoutWall(st.container, WALL));
    const over = view.phase === "over" || st.table.status !== "playing";
    return [
      h(
        "div",
        { class: "lineit-proj__status" },
        h("span", { class: "lineit-proj__turn", text: turnText(st) }),
        h(
          "span",
          { class: "lineit-proj__round" },
          view.phase === "final" ? gettext("Last plays") : fmt(gettext("Round %(round)s"), { round: view.round }),
          " \u00B7 ",
          fmt(gettext("Level %(level)s"), { level: view.level }),
        ),
      ),
      over
        ? outcomeSection(st, true)
        : h(
            "ol",
            { class: "lineit-proj__players" },
            view.players
              .slice()
              .sort((a, b) => b.score - a.score)
              .map((p) => {
                const dir = p.line.direction;
                const count = lineNumberCount(p.line);
                return h(
                  "li",
                  { class: "lineit-proj__player" + (view.whose_turn === p.id ? " is-turn" : "") },
                  h("span", { class: "lineit-proj__name" }, view.whose_turn === p.id ? h("span", { class: "lineit-turn-mark", "aria-label": gettext("playing now"), text: "\u25B6 " }) : null, p.name),
                  h(
                    "span",
                    { class: "lineit-proj__line" },
                    h("span", { class: "lineit-dir lineit-dir--" + (dir || "none"), "aria-hidden": "true", text: dir === "up" ? "\u25B2" : dir === "down" ? "\u25BC" : "\u25C6" }),
                    h("span", { class: "visually-hidden", text: directionText(dir) + ", " }),
                    " ",
                    fmt(ngettext("%(n)s card in line", "%(n)s cards in line", count), { n: count }),
                    p.tokens && p.tokens.length ? [" ", tokensEl(p.tokens)] : null,
                  ),
                  h("span", { class: "lineit-proj__score", text: String(p.score) }),
                );
              }),
          ),
      h(
        "ul",
        { class: "lineit-proj__jackpots", "aria-label": gettext("Jackpots") },
        view.jackpots.map((j) =>
          h(
            "li",
            { class: "lineit-proj__jackpot lineit-jackpot--" + j.colour },
            symbolSvg(j.symbol),
            h("span", { class: "lineit-proj__jackpot-count", "aria-hidden": "true", text: String(j.count) }),
            h("span", { class: "visually-hidden", text: fmt(gettext("%(suit)s jackpot: %(n)s"), { suit: suitName(j.colour, j.symbol), n: j.count }) }),
          ),
        ),
      ),
    ];
  }

  // ---------------------------------------------------------------------------------------------------
  // Drawing, focus and announcements
  // ---------------------------------------------------------------------------------------------------

  let uidCounter = 0;

  function draw(st) {
    if (st.dragging) {
      st.deferred = true;
      return;
    }
    const { container, ctx, table } = st;
    const view = table.view;
    const role = ctx.role;
    const active = document.activeElement;
    const focusKey = active && container.contains(active) ? active.dataset.fk : null;

    // Forget a pick that is no longer possible.
    if (st.selected) {
      const now = step(st);
      const pool = st.selected.source === "market" ? (now === "take" ? view.market : []) : now === "after" || now === "final" ? (view.you && view.you.hand) || [] : [];
      if (!pool.some((c) => c.id === st.selected.id)) st.selected = null;
    }

    let layout;
    let kind;
    if (role === "player") {
      kind = "player";
      layout = playerLayout(st);
    } else if (role === "projector") {
      kind = "projector";
      layout = projectorLayout(st);
    } else if (role === "teacher" && ctx.compact) {
      kind = "compact";
      layout = compactLayout(st);
    } else {
      kind = "board";
      layout = boardLayout(st);
    }
    const root = h(
      "div",
      {
        class: "lineit lineit--" + kind + (myTurn(st) ? " is-my-turn" : "") + (st.pending ? " is-pending" : ""),
        dataset: { game: GAME, phase: view.phase, step: step(st) || "" },
      },
      layout,
    );
    container.replaceChildren(root);
    if (ctx.countdown && st.clockEl) ctx.countdown(st.clockEl, st.clockDeadline);
    if (focusKey) {
      const again = container.querySelector("[data-fk='" + focusKey + "']");
      if (again && !again.disabled) again.focus();
      else {
        const fallback = container.querySelector(".lineit-actions button:not([disabled]), .lineit-market button");
        if (fallback) fallback.focus();
      }
    }
  }

  function announceChanges(st, first) {
    const { ctx, table } = st;
    const view = table.view;
    if (ctx.role === "replay" || !ctx.announce) return;
    const log = view.log || [];
    const newest = log.length ? log[log.length - 1].n : 0;
    const said = [];
    if (!first && st.lastN !== null && ctx.role === "player") {
      for (const entry of log) {
        if (entry.n > st.lastN) {
          const text = logText(entry, view, st.me);
          if (text) said.push(text);
        }
      }
    }
    st.lastN = newest;
    const turnKey = view.whose_turn + ":" + (view.turn ? view.turn.step : "") + ":" + view.round + ":" + view.phase;
    if (turnKey !== st.lastTurnKey) {
      st.lastTurnKey = turnKey;
      if (myTurn(st) && view.turn.step !== "after") said.push(gettext("Your turn.") + " " + promptText(st));
    }
    if (said.length && ctx.role === "player") ctx.announce(said.slice(-4).join(" "));
  }

  function render(container, table, ctx) {
    useCatalog(ctx);
    const st = stateFor(container);
    const first = !st.table;
    if (!st.uid) st.uid = "lineit-" + ++uidCounter;
    if (st.table && st.table.seq !== table.seq) st.error = null;
    st.table = table;
    st.ctx = ctx;
    st.me = ctx.role === "player" ? ctx.player || (table.view.you && table.view.you.player) || null : null;
    if (first && !st.selected && ctx.draft && step(st)) {
      const saved = ctx.draft(draftKey(st));
      if (saved && (saved.source === "market" || saved.source === "hand") && typeof saved.id === "string") st.selected = saved;
    }
    draw(st);
    if (first && ctx.role === "player" && window.scrollY === 0 && container.firstElementChild) {
      // A game screen: when it first appears, bring the status bar and the market to the top (the site's
      // header and the page title are not needed while playing). Never fights a reader's scroll.
      const card = container.closest(".table-card") || container;
      if (typeof card.scrollIntoView === "function") card.scrollIntoView({ block: "start", behavior: "instant" });
    }
    announceChanges(st, first);
  }

  const module = { render };
  // Exposed for the tests of the value formatting (no secrets: pure helpers).
  module.helpers = { exactDecimal, valueNote, logText };

  registerGame(GAME, module);
})();
