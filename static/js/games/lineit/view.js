/* Line-it's view: the whole screen for one viewer, from the view message, the viewer and their input in
 * progress (a LineitScene), in one of four layouts:
 *   role "player"     the student's device: market, own line and hand, the other players, jackpots, log,
 *                     and the move buttons (input.js makes the moves: tap, drag or keys);
 *   role "teacher"    compact on the console (one small card per table), full board otherwise;
 *   role "projector"  large: whose turn, every player's score and line, the four jackpots;
 *   role "replay"     the full board of one step, without moves or clock.
 *
 * Everything drawn comes from the view the server sent (deny-by-default): another player's hand is only a
 * count, values of cards appear only when the view carries them (after scoring, at the end). Whether a
 * card fits a line is never computed here: the student decides, the server refuses with the reason.
 * Pure: common.js morphs what `view` returns into the table's root (docs/frontend.md).
 */
(function () {
  "use strict";

  const { h, gettext, ngettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineit");
  const { pretty, suitName, tokenSum, signed, directionText, lineEndCard, lineNumberCount } = pieces;
  const { viewerOf, myTurn, step, turnText, symbolSvg, tokensEl, statusBar, marketSection, myLineSection } = pieces;
  const { handSection, actionBar, playerCard, jackpotsSection, logSection, outcomeSection, keysHelp } = pieces;

  // ---------------------------------------------------------------------------------------------------
  // The four layouts
  // ---------------------------------------------------------------------------------------------------

  /** @param {LineitScene} scene */
  function playerLayout(scene) {
    const view = scene.table.view;
    const me = view.players.find((p) => p.id === scene.me);
    const others = view.players.filter((p) => p.id !== scene.me);
    const over = view.phase === "over" || scene.table.status !== "playing";
    const main = h(
      "div",
      { class: "lineit-main" },
      over ? outcomeSection(scene, false) : null,
      over ? null : marketSection(scene, actionBar(scene)),
      me && !over ? h("div", { class: "lineit-mine-row" }, myLineSection(scene, me), handSection(scene)) : null,
      over ? null : keysHelp(),
    );
    const side = h(
      "div",
      { class: "lineit-side" },
      h(
        "section",
        { class: "lineit-others", "aria-labelledby": scene.uid + "-others" },
        h("h3", { id: scene.uid + "-others", text: gettext("Other players") }),
        h("ul", { class: "lineit-players" }, others.map((p) => playerCard(scene, p))),
      ),
      jackpotsSection(scene, "full"),
      logSection(scene),
    );
    return [statusBar(scene), h("div", { class: "lineit-layout" }, main, side)];
  }

  /** @param {LineitScene} scene */
  function boardLayout(scene) {
    const view = scene.table.view;
    const over = view.phase === "over" || scene.table.status !== "playing";
    return [
      statusBar(scene),
      over ? outcomeSection(scene, false) : null,
      h(
        "div",
        { class: "lineit-layout" },
        h(
          "div",
          { class: "lineit-main" },
          over ? null : marketSection(scene),
          h(
            "section",
            { class: "lineit-others", "aria-labelledby": scene.uid + "-players" },
            h("h3", { id: scene.uid + "-players", text: gettext("Players") }),
            h("ul", { class: "lineit-players" }, view.players.map((p) => playerCard(scene, p))),
          ),
        ),
        h("div", { class: "lineit-side" }, jackpotsSection(scene, "full"), logSection(scene)),
      ),
    ];
  }

  /** @param {LineitScene} scene */
  function compactLayout(scene) {
    const view = scene.table.view;
    const over = view.phase === "over";
    return [
      h(
        "p",
        { class: "lineit-compact__status" },
        h("strong", { text: turnText(scene) }),
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

  /** @param {LineitScene} scene */
  function projectorLayout(scene) {
    const view = scene.table.view;
    const over = view.phase === "over" || scene.table.status !== "playing";
    return [
      h(
        "div",
        { class: "lineit-proj__status" },
        h("span", { class: "lineit-proj__turn", text: turnText(scene) }),
        h(
          "span",
          { class: "lineit-proj__round" },
          view.phase === "final" ? gettext("Last plays") : fmt(gettext("Round %(round)s"), { round: view.round }),
          " \u00B7 ",
          fmt(gettext("Level %(level)s"), { level: view.level }),
        ),
      ),
      over
        ? outcomeSection(scene, true)
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
  // The view
  // ---------------------------------------------------------------------------------------------------

  /** What one draw shows: the screen's message and ctx, the viewer, and the input state.
   *  @param {GameScreen<LineitInputState>} screen @returns {LineitScene} */
  function sceneOf(screen) {
    const { table, ctx, uid, state } = screen;
    return { table, ctx, uid, me: viewerOf(table, ctx), selected: state.selected, pending: state.pending, error: state.error };
  }

  /** The screen for one viewer: the layout of their role, in one root element.
   *  @param {GameScreen<LineitInputState>} screen @returns {HTMLElement} */
  function view(screen) {
    const scene = sceneOf(screen);
    const { role, compact } = scene.ctx;
    const kind = role === "player" ? "player" : role === "projector" ? "projector" : role === "teacher" && compact ? "compact" : "board";
    const layouts = { player: playerLayout, projector: projectorLayout, compact: compactLayout, board: boardLayout };
    return h(
      "div",
      {
        class: "lineit lineit--" + kind + (myTurn(scene) ? " is-my-turn" : "") + (scene.pending ? " is-pending" : ""),
        dataset: { game: "lineit", phase: scene.table.view.phase, step: step(scene) || "" },
      },
      layouts[kind](scene),
    );
  }

  Object.assign(pieces, { sceneOf, view });
})();
