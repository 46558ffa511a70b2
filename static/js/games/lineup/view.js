/* Line Up!'s view: the whole screen for one viewer, from the view message, the viewer and their input in
 * progress (a LineupScene), in one of four layouts:
 *   role "player"     a student's device: the team's rack, prediction and bid pickers, the star-space flow,
 *                     the 5-space rearrangement (panels.js; input.js makes the moves: tap, drag or keys);
 *   role "teacher"    compact on the console (both teams' progress and proposals), full otherwise;
 *   role "projector"  large, public information only;
 *   role "replay"     the teacher's view, full size, without the console's controls.
 *
 * Stable hooks (used by browser tests; keep them):
 *   [data-rack] [data-card="1".."5"]   the team's rack: one <button> per card, in place order
 *   [data-slot="1".."5"]                the rack's places
 *   [data-picker] [data-value="1|2|3|5"]  prediction / bid choices
 *   [data-action="confirm"]             the captain's lock-in (answer, prediction, bid, star step)
 *   [data-star-hand] [data-card]        star turn: the cards not laid yet
 *   [data-star-places] [data-place]     star turn: the five places
 *   [data-action="stop"]                star turn: propose to stop
 *   [data-phase], [data-mini]           on the screen's element: the engine's phase and mini-game
 *
 * Pure: common.js morphs what `view` returns into the table's root (docs/frontend.md).
 */

/**
 * What one draw shows: the table's message for this viewer and their input in progress.
 * @typedef {object} LineupScene
 * @property {TableMessage} table
 * @property {LineupView} view
 * @property {GameContext} ctx the replay's with compact off
 * @property {string} uid the prefix of this screen's ids
 * @property {LineupInputState} state
 * @property {boolean} outerClock the page draws the table's clock in the card's header
 * @property {number[] | null} rack this device's own rack order, not yet in a view
 */

(function () {
  "use strict";

  const { h, gettext, interpolate: fmt } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("lineup");
  const { teamLabel, miniLine, isLive } = pieces;
  const { teamChip, board, questionHead, cardList, errorBox, revealPanel, winnerPanel, endedPanel } = pieces;
  const { pendingStars, logList, topBar, publicPhase, teamsBar, teacherDetails } = pieces;
  const { choicePanel, rackPanel, starPanel } = pieces;

  /** A student's device. @param {LineupScene} scene */
  function playerScreen(scene) {
    const { table, view, ctx, state } = scene;
    const you = view.you;
    if (!you) {
      // Not seated at this table (e.g. joined late): watch what the class screen shows.
      const watch = projectorScreen(scene);
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
      if (view.my_team.captain) body.push(choicePanel(view));
      else body.push(h("p", { class: "lu-prompt" }, gettext("The other team is choosing.")), cardList(view));
    } else if (view.phase === "answer" || view.phase === "final") {
      body.push(rackPanel(scene));
    } else if (view.phase === "star") {
      body.push(starPanel(scene));
    }
    return h(
      "div",
      { class: `lu lu-device lu-team-${you.team}${live ? "" : " lu-not-live"}` },
      topBar(view, table, ctx, badge, scene.outerClock),
      live ? h("p", { class: "lu-mini-line" }, miniLine(view)) : null,
      board(view, "small"),
      view.phase !== "reveal" && live ? questionHead(view, true) : null,
      h("div", { class: "lu-action" }, body),
      errorBox(state.error),
      logList(view)
    );
  }

  /** The class's screen: large, public information only. @param {LineupScene} scene */
  function projectorScreen(scene) {
    const { table, view, ctx } = scene;
    const live = isLive(view, table);
    return h(
      "div",
      { class: `lu lu-projector${live ? "" : " lu-not-live"}` },
      h("div", { class: "lu-top-row" }, topBar(view, table, ctx, null, scene.outerClock), live ? h("p", { class: "lu-mini-line" }, miniLine(view)) : null),
      board(view, "large"),
      teamsBar(view),
      !live
        ? [winnerPanel(view, null, true), endedPanel(table, null), revealPanel(view, null, true, false)]
        : [view.phase !== "reveal" ? questionHead(view, true) : null, publicPhase(view, true)]
    );
  }

  /** The console's hold on the answer: keep it on every screen, then go on when the class is ready. */
  function revealControls(view, table, ctx) {
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
            { type: "button", class: "secondary small", "data-action": "hold", "data-fk": "hold" },
            gettext("Hold the answer")
          ),
      can.has("continue")
        ? h(
            "button",
            { type: "button", class: "small", "data-action": "continue", "data-fk": "continue" },
            gettext("Next question")
          )
        : null
    );
  }

  /** The console (compact) or the teacher's full view (the replay too). @param {LineupScene} scene */
  function teacherScreen(scene) {
    const { table, view, ctx, state } = scene;
    const over = !isLive(view, table);
    if (ctx.compact) {
      return h(
        "div",
        { class: `lu lu-console${over ? " lu-not-live" : ""}` },
        topBar(view, table, ctx, null, scene.outerClock),
        board(view, "tiny"),
        view.question && !over ? h("p", { class: "lu-console-q" }, h("strong", null, view.question.heading), " · ", view.question.order_label) : null,
        over
          ? h("p", { class: "lu-status lu-game-over" }, view.winner ? fmt(gettext("%(team)s wins!"), { team: teamLabel(view.winner) }) : gettext("The teacher ended the game."))
          : null,
        revealControls(view, table, ctx),
        errorBox(state.error),
        teacherDetails(view, true),
        pendingStars(view)
      );
    }
    return h(
      "div",
      { class: "lu lu-teacher-full" },
      topBar(view, table, ctx, null, scene.outerClock),
      h("p", { class: "lu-mini-line" }, miniLine(view)),
      board(view, "large"),
      over ? [winnerPanel(view, null, false), endedPanel(table, null)] : null,
      revealControls(view, table, ctx),
      view.phase !== "reveal" && !over ? questionHead(view, true) : null,
      over ? null : publicPhase(view, false),
      over ? revealPanel(view, null, false, false) : null,
      teacherDetails(view, false),
      logList(view)
    );
  }

  /** What one draw shows. @param {GameScreen<LineupInputState>} screen @returns {LineupScene} */
  function sceneOf(screen) {
    const { table, ctx, uid, state } = screen;
    const pending = state.pending && state.pending.key === state.questionKey ? state.pending.order : null;
    return {
      table,
      view: table.view,
      ctx: ctx.role === "replay" ? Object.assign({}, ctx, { compact: false }) : ctx,
      uid,
      state,
      outerClock: state.outerClock,
      rack: pending,
    };
  }

  /** The rack as this device shows it: its own moves not yet in a view, else the team's.
   *  @param {GameScreen<LineupInputState>} screen @returns {number[]} */
  function shownRack(screen) {
    const mine = screen.table.view.my_team;
    return sceneOf(screen).rack || (mine && mine.rack) || [];
  }

  /** The screen for one viewer: the layout of their role, in one element.
   *  @param {GameScreen<LineupInputState>} screen @returns {HTMLElement} */
  function view(screen) {
    const scene = sceneOf(screen);
    const role = scene.ctx.role;
    const shown = scene.view || /** @type {LineupView} */ ({});
    let el;
    if (role === "player") el = playerScreen(scene);
    else if (role === "projector") el = projectorScreen(scene);
    else el = teacherScreen(scene);
    el.setAttribute("data-phase", shown.phase || "");
    el.setAttribute("data-mini", shown.mini || "");
    el.setAttribute("data-role", role);
    el.setAttribute("data-seq", String(scene.table.seq));
    return el;
  }

  Object.assign(pieces, { sceneOf, shownRack, view });
})();
