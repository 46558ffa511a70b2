/* Mind the Lines' view: the screens of each role, and `view(screen)`, the whole screen for one viewer.
 *
 * Roles: "player" (the student's device: read the concept, draw on the dotted lines, exclude, reveal),
 * "teacher" (console, compact: every drawing as it grows, hide/show a drawing), "projector" (large, public
 * only) and "replay" (the teacher's view, no controls).
 *
 * Everything drawn comes from the view the server sent (deny-by-default): a concept appears on its own
 * player's device only, and on every screen once revealed. Pure: common.js morphs what `view` returns
 * into the table's root (docs/frontend.md).
 */
(function () {
  "use strict";

  const { h, gettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("mindlines");
  const { nameOf, latestReveal, drawnLabels, button, drawingBoard, header, gallery, revealCards } = pieces;
  const { roundSummary, resultPanel, endedPanel, playerStatus, prophecyCards, conceptCard } = pieces;
  const { boardControls, drawingTools, doneControl, messageLine, prophesyingPanel } = pieces;

  const GAME = "mindlines";

  // ------------------------------------------------------------------------------------------------
  // The student's device
  // ------------------------------------------------------------------------------------------------

  /** The drawing screen (reading, then drawing): the board as large as the screen allows (fit.js),
   *  everything else beside it (a wide screen) or under it in two columns (a tall one), so nothing needed
   *  to play is below the fold. @param {MindlinesScene} scene */
  function drawingScreen(scene) {
    const { view, live } = scene;
    const me = view.me;
    const drawing = me.drawing;
    const drawingNow = view.phase === "scribbling" && live;
    const reading = view.phase === "looking";
    // while reading, what the drawing is going to be like (beside the board's side and turn buttons)
    const readNote = live && reading
      ? [h("p", { class: "ml-read-note" }, gettext("Only you can see it. Read it, then get ready to draw it using only the dotted lines. No letters or numbers!")),
        h("p", { class: "ml-hint" }, interpolate(gettext("You will have %(seconds)s seconds to draw."), {
          seconds: view.timers ? view.timers.draw_seconds : 120,
        }))]
      : null;
    let finish = null;
    if (live && reading) {
      finish = me.ready
        ? h("p", { class: "ml-waiting" }, gettext("Waiting for the others to read theirs…"))
        : button(gettext("I know my concept"), "ready", "ready", { class: "big" });
    } else if (drawingNow) {
      finish = doneControl(scene);
    }
    return h("div", { class: `ml-split${reading ? " ml-reading" : ""}` },
      header(scene, false),
      h("div", { class: "ml-board-wrap" }, drawingBoard(scene, drawing, drawingNow)),
      h("div", { class: "ml-side-panel" },
        h("div", { class: "ml-side-first" }, conceptCard(scene, !reading)),
        live ? h("div", { class: "ml-side-kit" },
          drawingNow ? drawingTools(scene, drawing) : null,
          boardControls(scene, drawing), readNote) : null,
        h("div", { class: "ml-side-done" }, finish, messageLine(scene)),
        playerStatus(view, me.player)));
  }

  /** @param {MindlinesScene} scene */
  function playerScreen(scene) {
    const { view, table, live } = scene;
    const me = view.me;
    if (table.status === "ended" && view.phase !== "over") {
      // the teacher ended the game: no board to draw on, no card to pick, no button; the standing instead
      return [
        header(scene, false),
        endedPanel(view, me.player, false),
        h("h3", {}, gettext("The group's drawings")),
        gallery(scene, { me: me.player }),
      ];
    }
    if (view.phase === "looking" || (view.phase === "scribbling" && !me.drawing.shown)) return [drawingScreen(scene)];
    const parts = [header(scene, false)];
    if (view.phase === "scribbling") {
      if (live) parts.push(h("p", { class: "ml-waiting" }, gettext("Your drawing is shown. Waiting for the others to finish…")));
      parts.push(gallery(scene, { me: me.player }));
      parts.push(playerStatus(view, me.player));
    } else if (view.phase === "prophesying") {
      const many = view.prophecy.cards.length > 10; // groups of 6 to 8, and of 3: the cards get more room
      parts.push(h("div", { class: `ml-two${many ? " ml-many-cards" : ""}` },
        prophesyingPanel(scene, me),
        h("section", { class: "ml-beside", "aria-label": gettext("The group's drawings") },
          h("h3", {}, gettext("The group's drawings")),
          gallery(scene, { me: me.player }))));
    } else if (view.phase === "reveal") {
      const reveal = latestReveal(view);
      parts.push(h("div", { class: "ml-next" },
        roundSummary(view, reveal),
        !live ? null : me.continued
          ? h("p", { class: "ml-waiting" }, gettext("Waiting for the others…"))
          : button(view.round >= view.rounds ? gettext("Continue") : gettext("Next round"), "continue", "continue", { class: "big" })));
      parts.push(messageLine(scene));
      parts.push(revealCards(view, reveal, me.player, false));
      parts.push(gallery(scene, { me: me.player, labels: drawnLabels(view, reveal) }));
    } else if (view.phase === "over") {
      const reveal = latestReveal(view);
      parts.push(resultPanel(view, me.player, false));
      if (reveal) {
        parts.push(h("h3", {}, interpolate(gettext("Round %(round)s"), { round: reveal.round })));
        parts.push(revealCards(view, reveal, me.player, false));
        parts.push(gallery(scene, { me: me.player, labels: drawnLabels(view, reveal) }));
      }
    }
    return parts;
  }

  // ------------------------------------------------------------------------------------------------
  // Teacher console, projector, replay
  // ------------------------------------------------------------------------------------------------

  /** @param {MindlinesScene} scene */
  function teacherScreen(scene) {
    const { view, table, ctx } = scene;
    const controls = ctx.role === "teacher" && table.status === "playing";
    const reveal = latestReveal(view);
    const revealed = ["reveal", "over"].includes(view.phase) && reveal;
    const parts = [header(scene, false)];
    if (table.status === "ended" && view.phase !== "over") parts.push(endedPanel(view, null, false));
    if (table.status === "playing" || view.phase === "over") parts.push(playerStatus(view, null));
    if (view.phase === "prophesying") parts.push(prophesyingPanel(scene, null));
    if (revealed) {
      parts.push(view.phase === "over" ? resultPanel(view, null, false) : roundSummary(view, reveal));
      if (!ctx.compact) parts.push(revealCards(view, reveal, null, false));
    }
    if (view.phase === "looking") {
      parts.push(h("p", { class: "ml-hint" }, gettext("Everyone is reading their secret concept.")));
    } else {
      parts.push(gallery(scene, {
        teacherDrawings: view.teacher ? view.teacher.drawings : null,
        controls,
        labels: revealed ? drawnLabels(view, reveal) : null,
      }));
    }
    if (controls) parts.push(messageLine(scene));
    if (ctx.compact) {
      parts.push(h("p", { class: "ml-hint" }, gettext("Hide a drawing that has letters or numbers. You never see the concepts before the reveal.")));
    }
    return parts;
  }

  /** @param {MindlinesScene} scene */
  function projectorScreen(scene) {
    const { view, table } = scene;
    const parts = [header(scene, true)];
    const reveal = latestReveal(view);
    if (table.status === "ended" && view.phase !== "over") {
      // the ended panel under the header; then what the group had drawn
      parts.push(endedPanel(view, null, true));
      parts.push(gallery(scene, { large: true }));
    } else if (view.phase === "looking") {
      parts.push(h("p", { class: "ml-big-note" }, gettext("Read your secret concept on your device. Don't say it!")));
      parts.push(playerStatus(view, null));
    } else if (view.phase === "scribbling") {
      parts.push(h("p", { class: "ml-big-note" }, gettext("Draw only on the dotted lines. No letters, no numbers!")));
      parts.push(gallery(scene, { large: true }));
    } else if (view.phase === "prophesying") {
      parts.push(h("p", { class: "ml-big-note" }, interpolate(gettext("%(name)s is excluding a concept. No talking!"), {
        name: nameOf(view, view.turn, null),
      })));
      // the cards beside the drawings when the group's part of the screen is wide, above them when not
      parts.push(h("div", { class: "ml-pair" },
        prophecyCards(view, null, { large: true }),
        gallery(scene, { large: true })));
    } else if (reveal) {
      parts.push(view.phase === "over" ? resultPanel(view, null, true) : roundSummary(view, reveal));
      parts.push(h("div", { class: "ml-pair" },
        revealCards(view, reveal, null, true),
        gallery(scene, { large: true, labels: drawnLabels(view, reveal) })));
    }
    return parts;
  }

  // ------------------------------------------------------------------------------------------------
  // The view
  // ------------------------------------------------------------------------------------------------

  /** What one draw shows. @param {GameScreen<MindlinesInputState>} screen @returns {MindlinesScene} */
  function sceneOf(screen) {
    const { table, ctx, uid, state } = screen;
    return { table, view: table.view || {}, ctx, uid, state, live: table.status === "playing" };
  }

  /** The role a screen is drawn for: a player's device without a seat at this table sees the console's.
   *  @param {MindlinesScene} scene */
  function roleOf(scene) {
    return scene.ctx.role === "player" && scene.view.me ? "player" : scene.ctx.role;
  }

  /** The screen for one viewer, in one root element.
   *  @param {GameScreen<MindlinesInputState>} screen @returns {HTMLElement} */
  function view(screen) {
    const scene = sceneOf(screen);
    const role = roleOf(scene);
    let parts;
    if (role === "player") parts = playerScreen(scene);
    else if (role === "projector") parts = projectorScreen(scene);
    else parts = teacherScreen(scene);
    return h("div", {
      class: `ml-root ml-role-${role}${scene.ctx.compact ? " ml-compact" : ""} ml-phase-${scene.view.phase}`,
      "data-game": GAME,
      "data-phase": scene.view.phase,
      "data-round": scene.view.round,
    }, parts);
  }

  Object.assign(pieces, { sceneOf, roleOf, view });
})();
