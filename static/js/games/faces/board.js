/* Line-Up's board: each piece of the screen as elements (the score line, the student's board of faces,
 * the question pad, their card, the confirmation, the answers, the other board, the rounds, the fairness
 * check), built from the view message or a FacesScene (words.js) with ClassplayUI's h. Pure: no listener
 * and no state here; a control says what it does in data-* attributes (data-action, with data-face or
 * data-question) and carries its focus key (data-fk); input.js acts on them.
 */
(function () {
  "use strict";

  const { h, gettext, ngettext, interpolate } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("faces");
  const { label, questionText, featuresOf, describe, nameOf, botLabel, percent, canAct, roundSentence } = pieces;
  const { roundHow, scoresOf, matchSentence, refusalText, timeoutText, pausedClockText, yesNo, faceSvg } = pieces;

  // ------------------------------------------------------------------------------------------------
  // Shared by every role
  // ------------------------------------------------------------------------------------------------

  /** A bar as long as the share of the 24 faces still up. @param {number} count */
  function leftBar(count) {
    const share = Math.max(0, Math.min(1, count / 24));
    return h("span", { class: "fc-leftbar", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(share * 100)}%` }));
  }

  /** @param {boolean} answer */
  function answerBadge(answer) {
    return h("span", { class: "fc-answer " + (answer ? "is-yes" : "is-no") }, yesNo(answer));
  }

  /** Both players and the rounds each has won. @param {FacesView} view @param {{large?: boolean}} [options] */
  function scoreLine(view, options) {
    const [a, b] = view.players || [];
    if (!a || !b) return h("p");
    const opts = options || {};
    const winner = view.result ? view.result.winner : null;
    const scores = scoresOf(view);
    /** @param {FacesPlayer} player */
    const side = (player) =>
      h("span", { class: "fc-score-side" + (view.turn === player.id ? " is-turn" : "") + (winner === player.id ? " is-winner" : "") }, [
        h("span", { class: "fc-score-name" }, [
          h("bdi", {}, nameOf(view, player.id)),
          player.bot ? h("span", { class: "fc-bot" }, " (" + botLabel(player.bot) + ")") : null,
          view.turn === player.id ? h("span", { class: "visually-hidden" }, " " + gettext("(to move)")) : null,
        ]),
        h("span", { class: "fc-wins", "aria-label": interpolate(ngettext("%(n)s round won", "%(n)s rounds won", scores[player.id] || 0), { n: scores[player.id] || 0 }) }, String(scores[player.id] || 0)),
      ]);
    return h("p", { class: "fc-score" + (opts.large ? " is-large" : "") }, [
      side(a),
      h("span", { class: "fc-score-dash", "aria-hidden": "true" }, "–"),
      side(b),
    ]);
  }

  /** The turn's clock: input.js draws the countdown in it after each draw (ctx.countdown); a paused clock
   *  says its time left. @param {FacesView} view */
  function clockEl(view) {
    return h("span", { class: "fc-clock", role: "timer", "aria-live": "off" }, pausedClockText(view));
  }

  /** A face with its caption (the round's faces). @param {FacesFace} face @param {string} [caption] */
  function miniFace(face, caption) {
    return h("figure", { class: "fc-mini" }, [
      h("div", { class: "fc-art", html: faceSvg(face) }),
      h("figcaption", {}, caption || face.name),
    ]);
  }

  // ------------------------------------------------------------------------------------------------
  // The student's device, asking
  // ------------------------------------------------------------------------------------------------

  /** The student's 24 faces: buttons that name a face on their turn, pictures otherwise.
   *  @param {FacesScene} scene */
  function boardSection(scene) {
    const { view, table, uid } = scene;
    const acting = canAct(view, table);
    const left = new Set(view.your_board.left);
    const titleId = uid + "-board-title";
    const board = h("ul", { class: "fc-board", "aria-labelledby": titleId });
    for (const face of view.board) {
      const up = left.has(face.id);
      const description = describe(face);
      const art = h("span", { class: "fc-art", html: faceSvg(face, { decorative: true }) });
      const name = h("span", { class: "fc-name" }, [h("span", { class: "fc-initial", "aria-hidden": "true" }, face.id), " ", face.name]);
      let tile;
      if (up && acting) {
        // The name read out starts with the name shown (the features follow, then what a tap does).
        tile = h("button", { type: "button", class: "fc-face", dataset: { fk: "face-" + face.id, action: "name", face: face.id } }, [
          art,
          name,
          h("span", { class: "visually-hidden" }, interpolate(gettext(": %(features)s. Tap to name this face."), { features: featuresOf(face) })),
        ]);
      } else {
        tile = h("div", { class: "fc-face", role: "img", "aria-label": up ? description : interpolate(gettext("%(description)s (ruled out)"), { description }) }, [art, name]);
      }
      board.append(h("li", { class: up ? "is-up" : "is-out" }, tile));
    }
    return h("section", { class: "fc-board-wrap" }, [
      h("h3", { id: titleId, class: "fc-h" }, [
        interpolate(ngettext("Your board: %(n)s face left", "Your board: %(n)s faces left", left.size), { n: left.size }),
        acting ? h("span", { class: "fc-sub" }, " · " + gettext("tap a face (or type its letter) to name it")) : null,
      ]),
      board,
    ]);
  }

  /** The twenty questions, each usable on the student's turn unless refused (with the reason).
   *  @param {FacesScene} scene */
  function padSection(scene) {
    const { view, table, uid } = scene;
    const acting = canAct(view, table);
    const titleId = uid + "-pad-title";
    const pad = h("div", { class: "fc-pad", role: "group", "aria-labelledby": titleId });
    for (const item of view.pad) {
      const why = item.allowed ? "" : refusalText(item.refusal);
      const usable = acting && item.allowed;
      const descId = why ? `${uid}-why-${item.id}` : null;
      pad.append(
        h("button", {
          type: "button",
          class: "fc-q" + (item.allowed ? "" : " is-refused") + (item.refusal === "already_asked" ? " is-asked" : ""),
          dataset: { fk: "q-" + item.id, action: "ask", question: item.id },
          disabled: !usable,
          title: questionText(item.id, item.question) + (why ? " — " + why : ""),
          "aria-describedby": descId,
        }, [label(item.id, item.label), "?", why ? h("span", { id: descId, class: "visually-hidden" }, why) : null])
      );
    }
    return h("section", { class: "fc-pad-wrap" }, [
      h("h3", { id: titleId, class: "fc-h" }, acting ? gettext("Ask a question") : gettext("The question pad")),
      pad,
      acting && timeoutText(view) ? h("p", { class: "fc-hint" }, timeoutText(view)) : null,
    ]);
  }

  /** The student's own secret face. @param {FacesView} view */
  function yourCard(view) {
    return h("section", { class: "fc-card", "aria-label": gettext("Your card") }, [
      h("div", { class: "fc-art", html: faceSvg(view.your_face) }),
      h("div", {}, [
        h("h3", { class: "fc-h" }, gettext("Your card")),
        h("p", { class: "fc-card-name" }, view.your_face.name),
        h("p", { class: "fc-sub" }, interpolate(gettext("%(name)s is trying to find this face."), { name: nameOf(view, view.opponent) })),
      ]),
    ]);
  }

  /** "Name Ava?": naming a face asks first. @param {FacesScene} scene @param {FacesFace} face */
  function confirmPanel(scene, face) {
    const titleId = scene.uid + "-confirm";
    return h("section", { class: "fc-confirm", role: "alertdialog", "aria-labelledby": titleId, "aria-describedby": titleId + "-d" }, [
      h("div", { class: "fc-art", html: faceSvg(face, { decorative: true }) }),
      h("div", {}, [
        h("h3", { id: titleId, class: "fc-h" }, interpolate(gettext("Name %(name)s?"), { name: face.name })),
        h("p", { id: titleId + "-d" }, gettext("Right: you win the round. Wrong: you lose it.")),
        h("p", { class: "row" }, [
          h("button", { type: "button", dataset: { fk: "confirm-yes", action: "confirm" } }, interpolate(gettext("Yes, name %(name)s"), { name: face.name })),
          h("button", { type: "button", class: "secondary", dataset: { fk: "confirm-no", action: "cancel" } }, gettext("Cancel")),
        ]),
      ]),
    ]);
  }

  /** The answer to the student's last question and how well it split the faces; the other's last one.
   *  @param {FacesView} view */
  function feedbackPanel(view) {
    const last = view.feedback;
    const asked = /** @type {{you: FacesAsked[], them: FacesAsked[]}} */ (view.asked);
    const section = h("section", { class: "fc-feedback", "aria-label": gettext("The last questions") });
    // The other player's last question this round and its answer, so it is seen without scrolling.
    const theirs = (asked && asked.them) || [];
    const their = theirs[theirs.length - 1];
    const theirLine = their
      ? h("p", { class: "fc-their-last" }, [
          interpolate(gettext("%(name)s asked: %(question)s"), { name: nameOf(view, view.opponent), question: questionText(their.question) }),
          " ",
          answerBadge(their.answer),
        ])
      : null;
    if (!last) {
      section.append(theirLine || h("p", { class: "fc-sub" }, gettext("Tip: a question that about half of your faces answer “yes” to is the fastest way down.")));
      return section;
    }
    const quality = Math.max(0, Math.min(1, last.quality));
    section.append(
      h("p", {}, [h("strong", {}, questionText(last.question)), " ", answerBadge(last.answer)]),
      h("p", {}, interpolate(ngettext("It kept %(kept)s face and removed %(removed)s.", "It kept %(kept)s faces and removed %(removed)s.", last.kept), { kept: last.kept, removed: last.removed })),
      h("div", { class: "fc-meter" }, [
        h("span", { class: "fc-meter-label" }, interpolate(gettext("Split quality: %(q)s of the best on the pad"), { q: percent(quality) })),
        h("span", { class: "fc-meter-bar", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(quality * 100)}%` })),
      ])
    );
    if (theirLine) section.append(theirLine);
    return section;
  }

  /** The other player's board: which letters are still up (never which face they hold).
   *  @param {FacesView} view */
  function theirBoard(view) {
    const theirs = view.their_board;
    const left = new Set(theirs.left);
    const name = nameOf(view, view.opponent);
    const grid = h("ul", { class: "fc-their-grid", "aria-hidden": "true" });
    for (const face of view.board) {
      grid.append(h("li", { class: left.has(face.id) ? "is-up" : "is-out", title: face.name }, face.id));
    }
    const names = view.board.filter((face) => left.has(face.id)).map((face) => face.name).join(", ");
    return h("section", { class: "fc-theirs" }, [
      h("h3", { class: "fc-h" }, interpolate(ngettext("%(name)s's board: %(n)s face left", "%(name)s's board: %(n)s faces left", theirs.left_count), { name, n: theirs.left_count })),
      grid,
      h("p", { class: "visually-hidden" }, interpolate(gettext("Faces still up on their board: %(names)s."), { names })),
      theirs.left_count === 1 && view.phase === "ask" ? h("p", { class: "fc-warn" }, gettext("They are down to one face: they will name it on their next turn!")) : null,
    ]);
  }

  /** Who asked first this round (the log's round_started). @param {FacesView} view */
  function firstOfRound(view) {
    const starts = (view.log || []).filter((entry) => entry.type === "round_started" && entry.round === view.round);
    return starts.length ? starts[starts.length - 1].first : null;
  }

  /** Both players' questions this round, in the order they were asked. @param {FacesView} view */
  function historyPanel(view) {
    const me = view.you;
    const asked = /** @type {{you: FacesAsked[], them: FacesAsked[]}} */ (view.asked);
    const mine = asked.you.map((entry, index) => ({ ...entry, who: me, index }));
    const theirs = asked.them.map((entry, index) => ({ ...entry, who: view.opponent, index }));
    const items = [];
    // The questions alternate (one per turn); interleave by turn order from the round's first asker.
    const order = firstOfRound(view) === me ? [mine, theirs] : [theirs, mine];
    const turns = Math.max(mine.length, theirs.length);
    for (let i = 0; i < turns; i += 1) {
      for (const list of order) if (list[i]) items.push(list[i]);
    }
    const section = h("section", { class: "fc-history" }, [h("h3", { class: "fc-h" }, gettext("Questions this round"))]);
    if (!items.length) {
      section.append(h("p", { class: "fc-sub" }, gettext("No questions yet.")));
      return section;
    }
    const list = h("ol", { class: "fc-history-list" });
    for (const entry of items) {
      list.append(
        h("li", { class: entry.who === me ? "is-mine" : "is-theirs" }, [
          h("span", { class: "fc-who" }, entry.who === me ? gettext("You") : nameOf(view, entry.who)),
          " ",
          questionText(entry.question),
          " ",
          answerBadge(entry.answer),
          " ",
          h("span", { class: "fc-sub" }, interpolate(gettext("kept %(kept)s, removed %(removed)s"), entry)),
        ])
      );
    }
    section.append(list);
    return section;
  }

  // ------------------------------------------------------------------------------------------------
  // Between rounds and after the match
  // ------------------------------------------------------------------------------------------------

  /** Who won a round, how, and both faces ("you" on a player's device).
   *  @param {FacesView} view @param {FacesRound} record @param {string | null} me */
  function roundResult(view, record, me) {
    const won = record.winner === me;
    const faces = record.faces || {};
    const title = me
      ? won
        ? interpolate(gettext("You won round %(round)s!"), { round: record.round })
        : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round })
      : interpolate(gettext("%(name)s won round %(round)s."), { name: nameOf(view, record.winner), round: record.round });
    const reason = roundSentence(view, record, me);
    const figures = h("div", { class: "fc-faces-pair" });
    for (const player of view.players) {
      const face = faces[player.id];
      if (!face) continue;
      const caption = me
        ? player.id === me
          ? interpolate(gettext("Your face: %(name)s"), { name: face.name })
          : interpolate(gettext("%(player)s's face: %(name)s"), { player: nameOf(view, player.id), name: face.name })
        : interpolate(gettext("%(player)s had %(name)s"), { player: nameOf(view, player.id), name: face.name });
      figures.append(miniFace(face, caption));
    }
    return h("section", { class: "fc-result" + (won ? " is-won" : "") }, [h("h3", { class: "fc-h" }, title), h("p", {}, reason), figures]);
  }

  /** @param {FacesView} view @param {Record<string, FacesFace>} faces @param {string | null} me */
  function facesOf(view, faces, me) {
    const figures = h("div", { class: "fc-faces-pair" });
    for (const player of view.players) {
      const face = faces[player.id];
      if (!face) continue;
      const caption = me && player.id === me
        ? interpolate(gettext("Your face: %(name)s"), { name: face.name })
        : interpolate(gettext("%(player)s's face: %(name)s"), { player: nameOf(view, player.id), name: face.name });
      figures.append(miniFace(face, caption));
    }
    return figures;
  }

  /** The end of the match: who won and how, the last round's two faces; the rounds table follows.
   *  @param {FacesView} view @param {string | null} me */
  function matchResult(view, me) {
    const result = view.result || /** @type {FacesResult} */ ({});
    const won = me && result.winner === me;
    const title = won ? gettext("You won the match!") : interpolate(gettext("%(name)s won the match."), { name: nameOf(view, result.winner) });
    const section = h("section", { class: "fc-result is-match" + (won ? " is-won" : "") }, [
      h("h3", { class: "fc-h", tabindex: "-1", dataset: { fk: "status" } }, title),
      h("p", {}, matchSentence(view, result, me)),
    ]);
    const last = view.rounds[view.rounds.length - 1];
    const unfinished = view.unfinished_round_faces;
    if (unfinished) {
      section.append(h("p", { class: "fc-sub" }, gettext("The last round was not finished. Its faces were:")), facesOf(view, unfinished, me));
    } else if (last) {
      section.append(h("p", { class: "fc-sub" }, interpolate(gettext("The faces of round %(round)s:"), { round: last.round })), facesOf(view, last.faces || {}, me));
    }
    return section;
  }

  /** A match the teacher ended before anyone won it: the score then. @param {FacesView} view */
  function endedResult(view) {
    const scores = scoresOf(view);
    const [a, b] = view.players;
    return h("section", { class: "fc-result is-match is-ended" }, [
      h("h3", { class: "fc-h", tabindex: "-1", dataset: { fk: "status" } }, gettext("Your teacher ended this match.")),
      h("p", {}, interpolate(gettext("It ended at %(a)s–%(b)s in rounds won. Nobody can move any more."), { a: scores[a.id] || 0, b: scores[b.id] || 0 })),
    ]);
  }

  /** Every finished round: its winner, how, and the faces. @param {FacesView} view @param {string | null} me */
  function roundsTable(view, me) {
    const rows = view.rounds.map((record) =>
      h("tr", {}, [
        h("td", {}, String(record.round)),
        h("td", {}, record.winner === me ? gettext("You") : nameOf(view, record.winner)),
        h("td", {}, roundHow(record.reason)),
        h(
          "td",
          {},
          view.players.map((player) => (record.faces && record.faces[player.id] ? `${player.id === me ? gettext("You") : nameOf(view, player.id)}: ${record.faces[player.id].name}` : "")).filter(Boolean).join(" · ")
        ),
      ])
    );
    return h("div", { class: "table-wrap fc-rounds" }, h("table", {}, [
      h("caption", { class: "visually-hidden" }, gettext("Rounds")),
      h("thead", {}, h("tr", {}, [gettext("Round"), gettext("Winner"), gettext("How"), gettext("Faces")].map((heading) => h("th", { scope: "col" }, heading)))),
      h("tbody", {}, rows),
    ]));
  }

  /** Between rounds: the round's result and "Ready"; once over, the match's result; then every round.
   *  @param {FacesScene} scene */
  function playerReveal(scene) {
    const { view, table } = scene;
    const me = view.you;
    const wrap = h("div", { class: "fc-reveal" });
    const last = view.rounds[view.rounds.length - 1];
    if (view.phase === "reveal" && last) {
      wrap.append(roundResult(view, last, me));
      const waiting = view.ready.includes(me);
      wrap.append(
        h("p", { class: "row fc-ready" }, [
          waiting
            ? h("span", {}, interpolate(gettext("Waiting for %(name)s…"), { name: nameOf(view, view.opponent) }))
            : h("button", { type: "button", class: "big", dataset: { fk: "ready", action: "ready" }, disabled: table.status !== "playing" }, gettext("Ready for the next round")),
          " ",
          h("span", { class: "fc-sub" }, [gettext("Next round starts in"), " ", clockEl(view)]),
        ])
      );
    } else if (view.phase === "over") {
      wrap.append(matchResult(view, me));
    }
    if (view.rounds.length) wrap.append(roundsTable(view, me));
    return wrap;
  }

  // ------------------------------------------------------------------------------------------------
  // The fairness check and the footer
  // ------------------------------------------------------------------------------------------------

  /** The commitment from the start; the seed and salt, and a link to check them, once the match is over.
   *  @param {FacesView} view @param {{table: number}} table */
  function verificationPanel(view, table) {
    const verification = view.verification || {};
    if (!verification.commitment) return null;
    const items = [
      h("dt", {}, gettext("Commitment (SHA-256 of salt:seed)")),
      h("dd", { class: "mono fc-hash" }, verification.commitment),
    ];
    if (verification.seed) {
      items.push(h("dt", {}, gettext("Seed")), h("dd", { class: "mono fc-hash" }, verification.seed));
      items.push(h("dt", {}, gettext("Salt")), h("dd", { class: "mono fc-hash" }, verification.salt));
    }
    const details = h("details", { class: "fc-verify" }, [
      h("summary", {}, verification.seed ? gettext("Check that the faces were fair") : gettext("Fairness commitment")),
      h("p", { class: "fc-sub" }, verification.seed
        ? gettext("The seed and salt are published now. Anyone can recompute the commitment and replay the match to check that no face changed.")
        : gettext("The faces of every round were fixed before the first question. When the match ends the seed is shown, so you can check.")),
      h("dl", {}, items),
    ]);
    if (verification.seed && table.table) {
      details.append(h("p", {}, h("a", { href: `/games/faces/verify/${table.table}/` }, gettext("Verify this match"))));
    }
    return details;
  }

  /** Resign (asked first) while the match is on; the fairness check. @param {FacesScene} scene */
  function playerFooter(scene) {
    const { view, table } = scene;
    const footer = h("footer", { class: "fc-footer" });
    if (view.phase !== "over" && table.status === "playing") {
      if (scene.resign) {
        footer.append(
          h("span", { class: "row fc-resign-confirm", role: "group", "aria-label": gettext("Resign?") }, [
            h("span", {}, gettext("Resign and lose the match?")),
            h("button", { type: "button", class: "danger", dataset: { fk: "resign-yes", action: "resign-yes" } }, gettext("Yes, resign")),
            h("button", { type: "button", class: "secondary", dataset: { fk: "resign-no", action: "resign-no" } }, gettext("Keep playing")),
          ])
        );
      } else {
        footer.append(h("button", { type: "button", class: "secondary fc-resign", dataset: { fk: "resign", action: "resign" } }, gettext("Resign")));
      }
    }
    const verification = verificationPanel(view, table);
    if (verification) footer.append(verification);
    return footer;
  }

  Object.assign(pieces, {
    leftBar,
    answerBadge,
    scoreLine,
    clockEl,
    miniFace,
    boardSection,
    padSection,
    yourCard,
    confirmPanel,
    feedbackPanel,
    theirBoard,
    historyPanel,
    roundResult,
    matchResult,
    endedResult,
    roundsTable,
    playerReveal,
    verificationPanel,
    playerFooter,
  });
})();
