/* Line-Up's view: the whole screen for one viewer, from the view message, the viewer and their input in
 * progress (a FacesScene), in one of three layouts:
 *   the student's device  (the view has `you` and `board`) the score, whose turn, the board of faces, the
 *                         question pad, their card, the answers, the other board, then the rounds;
 *   the teacher           (the view has `faces_left` or `asked`) each player's faces left and questions,
 *                         one wrapping line per player on the console (compact), a table otherwise;
 *   the projector         (and any public view) the score and the rounds won, never a face.
 *
 * Everything drawn comes from the view the server sent (deny-by-default). Pure: common.js morphs what
 * `view` returns into the table's root (docs/frontend.md).
 */
(function () {
  "use strict";

  const { h, gettext, ngettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("faces");
  const { label, questionText, nameOf, percent, canAct, roundLine, statusText, turnLine, awayHint } = pieces;
  const { matchSentence, leftBar, answerBadge, scoreLine, clockEl, miniFace, boardSection } = pieces;
  const { padSection, yourCard, confirmPanel, feedbackPanel, theirBoard, historyPanel, roundResult } = pieces;
  const { roundsTable, endedResult, playerReveal, verificationPanel, playerFooter } = pieces;

  // ------------------------------------------------------------------------------------------------
  // The student's device
  // ------------------------------------------------------------------------------------------------

  /** @param {FacesScene} scene */
  function playerLayout(scene) {
    const { view, table } = scene;
    const acting = canAct(view, table);
    const root = h("section", { class: "fc fc-player phase-" + view.phase, "aria-label": gettext("Line-Up") });
    // Status strip: score, round, whose turn, clock. Once the match is over (or ended by the teacher) the
    // result below says so, once.
    const ended = table.status !== "playing" && view.phase !== "over";
    const turnText = turnLine(view, table);
    root.append(
      h("header", { class: "fc-status" }, [
        scoreLine(view),
        h("p", { class: "fc-round" }, ended ? gettext("Ended by the teacher") : roundLine(view)),
        turnText
          ? h("p", { class: "fc-turn" + (acting ? " is-you" : ""), tabindex: "-1", dataset: { fk: "status" } }, [turnText, " ", view.phase === "ask" ? clockEl(view) : null])
          : null,
      ])
    );
    if (scene.error) root.append(h("p", { class: "fc-error", role: "alert" }, scene.error));
    if (ended) {
      const wrap = h("div", { class: "fc-reveal" }, endedResult(view));
      if (view.rounds.length) wrap.append(roundsTable(view, view.you));
      root.append(wrap);
    } else if (view.phase === "ask") {
      root.append(askingLayout(scene));
    } else {
      root.append(playerReveal(scene));
    }
    root.append(playerFooter(scene));
    return root;
  }

  /** A round in play: the board beside the pad, the card and the answers; the questions below.
   *  @param {FacesScene} scene */
  function askingLayout(scene) {
    const { view, table } = scene;
    const side = h("div", { class: "fc-side" });
    const naming = scene.confirm && canAct(view, table) ? view.board.find((face) => face.id === scene.confirm) : null;
    if (naming) side.append(confirmPanel(scene, naming));
    // The pad first (what a turn needs), then your card beside the answer to your last question.
    side.append(padSection(scene), yourCard(view), feedbackPanel(view), theirBoard(view));
    const main = h("div", { class: "fc-main" }, [boardSection(scene), side]);
    return h("div", {}, [main, historyPanel(view)]);
  }

  // ------------------------------------------------------------------------------------------------
  // The teacher: the console (compact) and the full board (the replay)
  // ------------------------------------------------------------------------------------------------

  /** A student of this match whose device is not connected now (from the session's presence, staff only):
   *  the console says so, so the teacher can see why turns are missed.
   *  @param {GameContext} ctx @param {{table: number, status: string}} table @param {FacesPlayer} player */
  function isAway(ctx, table, player) {
    if (player.bot || table.status !== "playing") return false;
    const people = (ctx.session && ctx.session.participants) || [];
    const person = people.find((p) => p.table === table.table && p.name === player.name && p.status === "present");
    return !!person && !person.connected;
  }

  /** Each player's questions this round, as the teacher's view gives them. @param {FacesView} view @param {string} pid */
  function askedBy(view, pid) {
    const asked = /** @type {Record<string, FacesAsked[]>} */ (view.asked || {});
    return asked[pid] || [];
  }

  /** @param {FacesScene} scene */
  function teacherLayout(scene) {
    const { view, table, ctx } = scene;
    const compact = !!ctx.compact;
    const root = h("section", { class: "fc fc-teacher" + (compact ? " is-compact" : ""), "aria-label": interpolate(gettext("Line-Up, table %(n)s"), { n: table.number }) });
    root.append(
      h("header", { class: "fc-status" }, [
        scoreLine(view),
        // Compact (the console), the table card's header already shows the clock.
        h("p", { class: "fc-round" }, [roundLine(view), " · ", statusText(view, table), " ", !compact && view.phase !== "over" && table.status === "playing" ? clockEl(view) : null]),
      ])
    );
    const stats = view.players.map((player) => {
      const asked = askedBy(view, player.id);
      const average = asked.length ? asked.reduce((sum, entry) => sum + entry.quality, 0) / asked.length : null;
      const count = view.faces_left ? view.faces_left[player.id] : null;
      return { player, asked, last: asked[asked.length - 1], average, count };
    });
    root.append(compact ? teacherList(scene, stats) : teacherTable(view, stats));
    if (view.phase === "over" && view.result) {
      root.append(h("p", { class: "fc-result-line" }, matchSentence(view, view.result)));
    }
    root.append(teacherDetail(scene));
    return root;
  }

  /** @typedef {{player: FacesPlayer, asked: FacesAsked[], last: FacesAsked | undefined, average: number | null, count: number | null}} FacesStats */

  /** Many matches at once: one wrapping line per player instead of a table.
   *  @param {FacesScene} scene @param {FacesStats[]} stats */
  function teacherList(scene, stats) {
    const { view, table, ctx } = scene;
    const list = h("ul", { class: "fc-teacher-list" });
    for (const { player, asked, last, average, count } of stats) {
      const away = isAway(ctx, table, player);
      list.append(
        h("li", { class: away ? "is-away" : null }, [
          h("strong", {}, h("bdi", {}, nameOf(view, player.id))),
          away ? h("span", { class: "fc-away", title: awayHint(view) }, gettext("not connected")) : null,
          count == null ? null : h("span", {}, [leftBar(count), " ", interpolate(ngettext("%(n)s face left", "%(n)s faces left", count), { n: count })]),
          h("span", { class: "fc-sub" }, interpolate(ngettext("%(n)s question", "%(n)s questions", asked.length), { n: asked.length }) + (average == null ? "" : " · " + interpolate(gettext("split %(q)s"), { q: percent(average) }))),
          last ? h("span", { class: "fc-last" }, [label(last.question) + "?", " ", answerBadge(last.answer)]) : null,
        ])
      );
    }
    return list;
  }

  /** @param {FacesView} view @param {FacesStats[]} stats */
  function teacherTable(view, stats) {
    const rows = h("tbody");
    for (const { player, asked, last, average, count } of stats) {
      rows.append(
        h("tr", {}, [
          h("th", { scope: "row" }, h("bdi", {}, nameOf(view, player.id))),
          h("td", {}, count == null ? "" : [leftBar(count), " ", String(count)]),
          h("td", {}, String(asked.length)),
          h("td", {}, average == null ? "–" : percent(average)),
          h("td", { class: "fc-last" }, last ? [questionText(last.question), " ", answerBadge(last.answer)] : "–"),
        ])
      );
    }
    return h("div", { class: "table-wrap" }, h("table", { class: "fc-teacher-table" }, [
      h("caption", { class: "visually-hidden" }, gettext("This round")),
      h("thead", {}, h("tr", {}, [gettext("Player"), gettext("Faces left"), gettext("Questions"), gettext("Average split"), gettext("Last question")].map((heading) => h("th", { scope: "col" }, heading)))),
      rows,
    ]));
  }

  /** Every question of the round with its split, the finished rounds, the faces of a round cut short and
   *  the fairness check: folded away on the console. @param {FacesScene} scene */
  function teacherDetail(scene) {
    const { view, table, ctx } = scene;
    const detail = ctx.compact ? h("details", { class: "fc-more" }, [h("summary", {}, gettext("Questions and rounds"))]) : h("div", { class: "fc-more" });
    for (const player of view.players) {
      const asked = askedBy(view, player.id);
      const list = h("ol", { class: "fc-history-list" });
      for (const entry of asked) {
        list.append(
          h("li", {}, [
            questionText(entry.question), " ",
            answerBadge(entry.answer), " ",
            h("span", { class: "fc-sub" }, interpolate(gettext("%(yes)s yes / %(no)s no, quality %(q)s"), { yes: entry.yes, no: entry.no, q: percent(entry.quality) })),
          ])
        );
      }
      detail.append(h("h4", { class: "fc-h" }, interpolate(gettext("%(name)s's questions this round"), { name: nameOf(view, player.id) })), asked.length ? list : h("p", { class: "fc-sub" }, interpolate(gettext("%(name)s has not asked a question yet."), { name: nameOf(view, player.id) })));
    }
    for (const record of view.rounds || []) detail.append(roundResult(view, record, null));
    if (view.unfinished_round_faces) {
      const figures = h("div", { class: "fc-faces-pair" });
      for (const player of view.players) {
        const face = view.unfinished_round_faces[player.id];
        if (face) figures.append(miniFace(face, interpolate(gettext("%(player)s had %(name)s"), { player: nameOf(view, player.id), name: face.name })));
      }
      detail.append(h("p", { class: "fc-sub" }, gettext("The last round was not finished. Its faces were:")), figures);
    }
    const verification = verificationPanel(view, table);
    if (verification) detail.append(verification);
    return detail;
  }

  // ------------------------------------------------------------------------------------------------
  // The projector
  // ------------------------------------------------------------------------------------------------

  /** @param {FacesScene} scene */
  function projectorLayout(scene) {
    const { view, table } = scene;
    const root = h("section", { class: "fc fc-projector", "aria-label": interpolate(gettext("Line-Up, table %(n)s"), { n: table.number }) });
    root.append(scoreLine(view, { large: true }));
    const round = view.phase === "over" ? gettext("Match over") : interpolate(gettext("Round %(round)s"), { round: view.round });
    const target = view.phase === "over" ? null : h("span", { class: "fc-round-target" }, " · " + interpolate(gettext("first to %(target)s"), { target: view.rounds_to_win }));
    root.append(h("p", { class: "fc-round" }, [round, target, " · ", statusText(view, table)]));
    const marks = h("ol", { class: "fc-round-marks" });
    for (const record of view.rounds || []) {
      marks.append(h("li", {}, interpolate(gettext("Round %(round)s: %(name)s"), { round: record.round, name: nameOf(view, record.winner) })));
    }
    root.append(marks); // (empty before the first round ends: the cards of a wall keep one height)
    return root;
  }

  // ------------------------------------------------------------------------------------------------
  // The view
  // ------------------------------------------------------------------------------------------------

  /** What one draw shows: the screen's message and ctx, and the input state.
   *  @param {GameScreen<FacesInputState>} screen @returns {FacesScene} */
  function sceneOf(screen) {
    const { table, ctx, uid, state } = screen;
    const view = /** @type {FacesView} */ ((table && table.view) || {});
    return { table, view, ctx, uid, confirm: state.confirm, resign: state.resign, error: state.error };
  }

  /** Which layout a viewer gets: what the view holds decides (a player's view has their board).
   *  @param {FacesScene} scene @returns {"player" | "projector" | "teacher"} */
  function layoutOf(scene) {
    const { view, ctx } = scene;
    if (view.you && view.board) return "player";
    if (ctx.role === "projector") return "projector";
    if (view.faces_left || view.asked) return "teacher";
    return "projector";
  }

  /** The screen for one viewer, in one root element. @param {GameScreen<FacesInputState>} screen */
  function view(screen) {
    const scene = sceneOf(screen);
    const layouts = { player: playerLayout, projector: projectorLayout, teacher: teacherLayout };
    return layouts[layoutOf(scene)](scene);
  }

  Object.assign(pieces, { sceneOf, layoutOf, view });
})();
