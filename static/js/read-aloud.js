/* Read aloud, on the device of a student who has it on their record: the Read aloud button in the play
 * bar reads the game as it is on screen (the prompt, the options, the last result, whose turn, the clock),
 * piece by piece in reading order. The browser's own voice reads it where the browser has one for the
 * page's language; otherwise each piece is fetched as audio the server speaks (POST to the play page's
 * speak/ URL, which speaks only what this student's screen shows) and played in turn. */
(function () {
  "use strict";
  const root = document.querySelector("[data-read-aloud]");
  const bar = document.querySelector("[data-read-aloud-bar]");
  if (!root || !bar) return;
  const url = root.getAttribute("data-read-aloud");
  const startButton = bar.querySelector("[data-read-aloud-start]");
  const stopButton = bar.querySelector("[data-read-aloud-stop]");
  const gettext = window.gettext || ((text) => text);
  const language = (document.documentElement.lang || "en").toLowerCase();
  let player = null;
  let run = 0; // a new reading (or Stop) ends the one before

  function shown(element) {
    if (element.closest("[hidden], [aria-hidden='true'], .visually-hidden")) return false;
    return element.checkVisibility ? element.checkVisibility() : element.offsetParent !== null;
  }

  /** The screen's text pieces, in reading order: each text the game module drew is one piece. */
  function pieces() {
    const area = root.querySelector("[data-tables]") || root;
    const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
    const found = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.replace(/\s+/g, " ").trim();
      if (!text || !/[\p{L}\p{N}]/u.test(text) || !shown(node.parentElement)) continue;
      if (found[found.length - 1] !== text) found.push(text);
    }
    return found;
  }

  function browserVoice() {
    if (!("speechSynthesis" in window)) return null;
    const base = language.split("-")[0];
    const voices = window.speechSynthesis.getVoices() || [];
    return voices.find((v) => v.lang.toLowerCase().startsWith(base) && v.localService) ||
      voices.find((v) => v.lang.toLowerCase().startsWith(base)) || null;
  }

  function csrfToken() {
    const input = /** @type {HTMLInputElement | null} */ (document.querySelector("[name=csrfmiddlewaretoken]"));
    return input ? input.value : "";
  }

  async function serverAudio(text) {
    const body = new FormData();
    body.append("text", text);
    const response = await fetch(url, {
      method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrfToken() },
    });
    if (!response.ok) {
      const error = Object.assign(new Error("speak " + response.status), { status: response.status });
      throw error;
    }
    return URL.createObjectURL(await response.blob());
  }

  function play(objectUrl) {
    if (!player) player = new Audio();
    return new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve, reject) => {
      player.onended = () => { URL.revokeObjectURL(objectUrl); resolve(); };
      player.onerror = () => { URL.revokeObjectURL(objectUrl); reject(new Error("audio")); };
      player.src = objectUrl;
      const started = player.play();
      if (started && started.catch) started.catch(reject);
    });
  }

  function finished(mine) {
    if (mine !== run) return;
    stopButton.hidden = true;
    startButton.focus();
  }

  async function readWithServer(texts, mine) {
    for (const text of texts) {
      if (mine !== run) return;
      try {
        await play(await serverAudio(text));
      } catch (error) {
        if (error.status === 503 || error.status === 429) {
          announce(error.status === 503 ? gettext("The sound is not available.") : gettext("Too many requests: wait a moment."));
          break;
        }
        // a piece the server will not speak (403) is skipped; the next one is read
      }
    }
    finished(mine);
  }

  function readWithBrowser(texts, voice, mine) {
    window.speechSynthesis.cancel();
    texts.forEach((text, index) => {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.lang = voice.lang;
      utterance.rate = 0.9;
      if (index === texts.length - 1) utterance.onend = () => finished(mine);
      window.speechSynthesis.speak(utterance);
    });
  }

  function announce(text) {
    const region = document.getElementById("live-announcer");
    if (region) region.textContent = text;
  }

  function stop() {
    run += 1;
    if ("speechSynthesis" in window) window.speechSynthesis.cancel();
    if (player) player.pause();
    stopButton.hidden = true;
  }

  startButton.addEventListener("click", () => {
    stop();
    const mine = run;
    const texts = pieces();
    if (!texts.length) return;
    stopButton.hidden = false;
    const voice = browserVoice();
    if (voice) readWithBrowser(texts, voice, mine);
    else readWithServer(texts, mine);
  });
  stopButton.addEventListener("click", () => { stop(); startButton.focus(); });
  bar.hidden = false;
  // Keep the buttons on screen when the game scrolls the play bar away (Line-Up scrolls to its board).
  const header = bar.closest("header");
  if (header && "IntersectionObserver" in window) {
    new IntersectionObserver(([entry]) => bar.classList.toggle("is-floating", !entry.isIntersecting)).observe(header);
  }
  /** @type {any} */ (window).ClassplayReadAloud = { pieces }; // for the browser tests
})();
