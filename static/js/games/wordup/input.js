/* Word Up's input: moves, the answer being typed, the swap being picked, keys and sound on the student's
 * device, the teacher's Accept, and what is announced. It keeps the screen's input state
 * (WordupInputState), sends moves through ctx.act and asks for a redraw; the view (words.js, board.js,
 * view.js) draws from that state. Registers the game's screen (docs/frontend.md).
 *
 * Spelling is heard, never read: the device of the student being asked fetches the spoken sentence and
 * word from /games/wordup/audio/<table>/<serial>/<part>/ (the server lets only that student have it) and
 * plays them; "Say it again" repeats them. After the answer the word is public, and "Hear the word" uses
 * the browser's speech synthesis when it has an English voice (else the same server audio).
 *
 * Keys on the student's device (also on the How to play page), when not typing in the answer box:
 *   R roll the dice; 1-6 press the first, second ... choice on offer (colours, answers, card options);
 *   L listen again (Spelling); Enter in the answer box sends the answer.
 */

/**
 * The viewer's input in progress, kept per table root across redraws.
 * @typedef {object} WordupInputState
 * @property {Record<string, string>} typed the answer typed so far, by question serial
 * @property {{with: string | null, give: string | null, take: string | null} | null} exchange the swap
 *   picked so far on an Exchange card
 * @property {string | null} exchangeStep the step that swap belongs to
 * @property {boolean} pending a move is on its way (its panel is disabled until the next message)
 * @property {{step: string, message: string} | null} problem the server's reason for a refused move
 * @property {{serial: number, text: string} | null} sound how the question's sound went ("" once played)
 * @property {Record<string, boolean>} played the questions whose sound played by itself once
 * @property {Record<string, Record<string, string>>} audio the spoken parts fetched, as object URLs
 * @property {string} announced what was last announced (phase, turn, question, result)
 * @property {string | null} lastResult the last answer announced
 * @property {string | null} focusedFor the step whose move last took the focus
 */

/** @typedef {GameScreen<WordupInputState>} WordupScreen */

(function () {
  "use strict";

  const { gettext, screenModule, registerGame } = window.ClassplayUI;
  const pieces = window.ClassplayUI.pieces("wordup");
  const { statusLine, stoppedLine, resultAnnouncement, MAX_ANSWER, sceneOf, view, fitted } = pieces;

  const AUDIO_URL = "/games/wordup/audio/";

  /** @returns {WordupInputState} */
  function freshState() {
    return {
      typed: {},
      exchange: null,
      exchangeStep: null,
      pending: false,
      problem: null,
      sound: null,
      played: {},
      audio: {},
      announced: "",
      lastResult: null,
      focusedFor: null,
    };
  }

  /** @param {WordupScreen} screen @param {number} serial */
  const draftKey = (screen, serial) => `wordup:${screen.table.table}:${serial}`;

  // ---------------------------------------------------------------------------------------------------
  // Moves
  // ---------------------------------------------------------------------------------------------------

  /** Send a move; on refusal show the server's reason (kept across redraws until the step changes).
   *  @param {WordupScreen} screen @param {WordupAction} action */
  function send(screen, action) {
    const state = screen.state;
    if (state.pending) return;
    const step = sceneOf(screen).step;
    state.pending = true;
    state.problem = null;
    screen.redraw();
    // ctx.act never throws: a refusal or a failed send rejects its promise.
    Promise.resolve(screen.ctx.act(action)).then(
      (ack) => {
        if (ack && action.type === "accept") screen.ctx.announce(gettext("Answer accepted."));
      },
      (error) => {
        const message = (error && error.message) || gettext("That did not work. Try again.");
        state.pending = false;
        state.problem = { step, message };
        screen.redraw();
        screen.ctx.announce(message);
      }
    );
  }

  /** @param {WordupScreen} screen @param {HTMLFormElement} form */
  function sendAnswer(screen, form) {
    const input = /** @type {HTMLInputElement} */ (form.querySelector(".wu-input"));
    const question = sceneOf(screen).view.question;
    if (!input || !question) return;
    const text = input.value.trim();
    if (question.category === "spelling" && !text && !window.confirm(gettext("Send an empty answer? It counts as wrong."))) return;
    send(screen, { type: "answer", answer: text.slice(0, MAX_ANSWER) });
  }

  /** The swap on show in the Exchange form. @param {WordupScreen} screen @param {HTMLFormElement} form */
  function sendSwap(screen, form) {
    const value = (/** @type {string} */ name) => /** @type {HTMLSelectElement} */ (form.elements.namedItem(name)).value;
    const swaps = (sceneOf(screen).view.actions || []).filter((a) => a.type === "card" && a.choice === "exchange");
    const action = swaps.find((a) => a.with === value("with") && a.give === value("give") && a.take === value("take"));
    if (action) send(screen, action);
  }

  /** A pick in the Exchange form: a new player or colour to give resets the colour to take.
   *  @param {WordupScreen} screen @param {HTMLSelectElement} select */
  function pickSwap(screen, select) {
    const form = /** @type {HTMLFormElement} */ (select.form);
    const value = (/** @type {string} */ name) => /** @type {HTMLSelectElement} */ (form.elements.namedItem(name)).value;
    screen.state.exchange = { with: value("with"), give: value("give"), take: select.name === "take" ? value("take") : null };
    screen.redraw();
  }

  // ---------------------------------------------------------------------------------------------------
  // Sound
  // ---------------------------------------------------------------------------------------------------

  /** The spoken parts of a question (object URLs of the server's audio), fetched once per question.
   *  @param {WordupScreen} screen @param {number} serial @returns {Promise<Record<string, string>>} */
  async function fetchAudio(screen, serial) {
    const kept = screen.state.audio;
    const key = String(serial);
    if (kept[key]) return kept[key];
    /** @type {Record<string, string>} */
    const parts = {};
    for (const part of ["sentence", "word"]) {
      const response = await fetch(`${AUDIO_URL}${screen.table.table}/${serial}/${part}/`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) {
        const error = Object.assign(new Error("audio " + response.status), { status: response.status });
        throw error;
      }
      parts[part] = URL.createObjectURL(await response.blob());
    }
    for (const old of Object.keys(kept)) {
      if (old !== key) {
        Object.values(kept[old]).forEach((url) => URL.revokeObjectURL(url));
        delete kept[old];
      }
    }
    kept[key] = parts;
    return parts;
  }

  /** @type {HTMLAudioElement | null} one <audio> for the page: a new sound stops the last one */
  let player = null;
  /** @param {string[]} urls */
  function playUrls(urls) {
    if (!player) player = new Audio();
    const audio = player;
    return urls.reduce(
      (chain, url) =>
        chain.then(
          () =>
            new Promise((resolve, reject) => {
              audio.onended = () => resolve(undefined);
              audio.onerror = () => reject(new Error("audio"));
              audio.src = url;
              const started = audio.play();
              if (started && started.catch) started.catch(reject);
            })
        ),
      Promise.resolve()
    );
  }

  function englishVoice() {
    if (!("speechSynthesis" in window)) return null;
    const voices = window.speechSynthesis.getVoices() || [];
    return voices.find((v) => /^en(-|_|$)/i.test(v.lang) && v.localService) || voices.find((v) => /^en/i.test(v.lang)) || null;
  }

  /** Say public text (after the answer): the browser's voice if it has an English one, else the server's.
   *  @param {string[]} texts @param {() => Promise<any>} fallback */
  function sayPublic(texts, fallback) {
    const voice = englishVoice();
    if (voice) {
      window.speechSynthesis.cancel();
      for (const text of texts) {
        const utterance = new SpeechSynthesisUtterance(text);
        utterance.voice = voice;
        utterance.lang = voice.lang;
        utterance.rate = 0.85;
        window.speechSynthesis.speak(utterance);
      }
      return Promise.resolve("browser");
    }
    return fallback();
  }

  /** @param {WordupScreen} screen @param {number} serial @param {string} text */
  function soundState(screen, serial, text) {
    screen.state.sound = { serial, text };
    screen.redraw();
  }

  /** Plays the question's sentence and word (or just the word) to the student being asked.
   *  @param {WordupScreen} screen @param {string[]} parts */
  function listen(screen, parts) {
    const question = sceneOf(screen).view.question;
    if (!question) return;
    const serial = question.serial;
    soundState(screen, serial, gettext("Listening…"));
    fetchAudio(screen, serial)
      .then((urls) => playUrls(parts.map((p) => urls[p])))
      .then(() => soundState(screen, serial, ""))
      .catch((error) => {
        if (error && error.name === "NotAllowedError") soundState(screen, serial, gettext("Tap Say it again to hear the word."));
        else if (error && error.status === 503) soundState(screen, serial, gettext("The sound is not available on this server. Ask your teacher to read the word to you."));
        else soundState(screen, serial, gettext("The sound did not play. Tap Say it again."));
      });
  }

  /** The last answer's spelling word, public now. @param {WordupScreen} screen */
  function hearWord(screen) {
    const result = sceneOf(screen).view.last_result;
    if (!result || !result.word) return;
    sayPublic([result.word], () => fetchAudio(screen, result.question.serial).then((parts) => playUrls([parts.word]))).catch(() =>
      screen.ctx.announce(gettext("The sound is not available."))
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Announcements: one sentence when something the viewer should know changes
  // ---------------------------------------------------------------------------------------------------

  /** @param {WordupScreen} screen */
  function announce(screen) {
    const { ctx, state } = screen;
    const view = sceneOf(screen).view;
    if (ctx.role === "replay" || ctx.role === "projector" || (ctx.role === "teacher" && ctx.compact)) return;
    const q = view.question;
    const result = view.last_result;
    const key = [view.phase, view.turn, view.stopped || "", q ? q.serial : "", result ? result.question.serial + ":" + result.correct + ":" + result.open : ""].join("|");
    if (key === state.announced) return;
    const first = state.announced === "";
    state.announced = key;
    if (first && ctx.role !== "player") return;
    const parts = [];
    if (view.stopped) {
      ctx.announce(stoppedLine(view, ctx));
      return;
    }
    const marked = result ? result.question.serial + ":" + result.open + ":" + result.correct : null;
    if (result && state.lastResult !== marked) {
      state.lastResult = marked;
      const line = resultAnnouncement(view, ctx, result);
      if (line) parts.push(line);
    }
    parts.push(statusLine(view, ctx));
    ctx.announce(parts.filter(Boolean).join(" "));
  }

  // ---------------------------------------------------------------------------------------------------
  // The screen's input: bound once per root, told of each message, and after each draw
  // ---------------------------------------------------------------------------------------------------

  /** The student's keys (R, 1-9, L): only when one move is on offer on the page and nobody is typing.
   *  @param {WordupScreen} screen @param {KeyboardEvent} event */
  function onKey(screen, event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    const moves = document.querySelectorAll(".wu-role-player .wu-move");
    if (moves.length !== 1 || !screen.root.contains(moves[0]) || !event.key) return;
    const button = moves[0].querySelector(`[data-key="${CSS.escape(event.key.toLowerCase())}"]:not([disabled])`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  }

  /** @param {WordupScreen} screen */
  function bind(screen) {
    const root = screen.root;
    root.addEventListener("click", (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-move], button[data-action]"));
      if (!button || !root.contains(button) || button.disabled) return;
      if (button.dataset.move) send(screen, JSON.parse(button.dataset.move));
      else if (button.dataset.action === "say") listen(screen, ["sentence", "word"]);
      else if (button.dataset.action === "say-word") listen(screen, ["word"]);
      else if (button.dataset.action === "hear") hearWord(screen);
    });
    root.addEventListener("submit", (event) => {
      const form = /** @type {HTMLFormElement} */ (event.target);
      if (!form.dataset.form) return;
      event.preventDefault();
      if (form.dataset.form === "answer") sendAnswer(screen, form);
      else if (form.dataset.form === "exchange") sendSwap(screen, form);
    });
    root.addEventListener("input", (event) => {
      const input = /** @type {HTMLInputElement} */ (event.target);
      if (!input.classList.contains("wu-input")) return;
      const serial = Number(input.dataset.serial);
      screen.state.typed[serial] = input.value;
      if (screen.ctx.saveDraft) screen.ctx.saveDraft(draftKey(screen, serial), input.value);
      screen.redraw(); // the letter count
    });
    root.addEventListener("change", (event) => {
      const select = /** @type {HTMLSelectElement} */ (event.target);
      if (select.tagName === "SELECT" && select.closest("[data-form=exchange]")) pickSwap(screen, select);
    });
    document.addEventListener("keydown", (event) => {
      if (root.isConnected && screen.ctx && screen.ctx.role === "player") onKey(screen, event);
    });
  }

  /** A new message: the move on its way has had its answer, a swap picked for another step is dropped, a
   *  saved answer comes back after a reload, and what changed is announced.
   *  @param {WordupScreen} screen */
  function receive(screen) {
    const { state, ctx } = screen;
    const scene = sceneOf(screen);
    state.pending = false;
    if (state.exchangeStep !== scene.step) {
      state.exchange = null;
      state.exchangeStep = scene.step;
    }
    const question = scene.view.question;
    if (question && ctx.role === "player" && state.typed[question.serial] === undefined && ctx.draft) {
      const saved = ctx.draft(draftKey(screen, question.serial));
      if (typeof saved === "string" && saved) state.typed[question.serial] = saved;
    }
    announce(screen);
  }

  /** After each draw: the clocks, the board's size, the focus on a new move, and a spelling question's
   *  sound the first time it is shown. @param {WordupScreen} screen */
  function drawn(screen) {
    const { root, ctx, state } = screen;
    const { view, step } = sceneOf(screen);
    const drawnRoot = /** @type {HTMLElement | null} */ (root.querySelector(".wu-root"));
    const live = ctx.role !== "replay" && view.phase !== "over" && !view.stopped;
    if (ctx.countdown) {
      for (const clock of root.querySelectorAll("[data-clock]")) {
        const deadline = clock.dataset.clock === "game" ? (view.clock || {}).game_deadline : (view.clock || {}).deadline;
        ctx.countdown(clock, live ? deadline || null : null);
      }
    }
    if (drawnRoot) fitted(drawnRoot, ctx.role);
    const active = document.activeElement;
    const keptFocus = active instanceof HTMLElement && root.contains(active) && !!active.dataset.fk;
    if (!keptFocus && ctx.role === "player" && view.actions && view.actions.length && state.focusedFor !== step) {
      // A new move to make: put the keyboard (and the tablet's keyboard) where it is needed.
      state.focusedFor = step;
      const target = /** @type {HTMLElement | null} */ (root.querySelector(".wu-input") || root.querySelector(".wu-move button:not([disabled])"));
      if (target && (!active || active === document.body || root.contains(active) || active === root)) target.focus();
    }
    const listenBox = root.querySelector(".wu-listen-box");
    const serial = listenBox ? listenBox.dataset.serial : null;
    if (serial && ctx.role === "player" && !state.played[serial]) {
      state.played[serial] = true;
      setTimeout(() => listen(screen, ["sentence", "word"]), 0);
    }
  }

  const module = screenModule("wordup", { state: freshState, view, input: { bind, receive, drawn } });
  // For the tests and the replay: every sentence the screen can say (tests/browser/test_wordup_text.py).
  const helpers = ["gridPlace", "eventText", "rollLine", "answeredLabel", "cardText", "statusLine", "outcomeLine", "stoppedLine", "resultAnnouncement", "askLeftNote", "boardSummary", "squareName"];
  registerGame("wordup", Object.assign(module, { helpers: Object.fromEntries(helpers.map((name) => [name, pieces[name]])) }));
})();
