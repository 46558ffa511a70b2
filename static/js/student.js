/* A student's device between games: the home page's list of open games, and the game page once its
 * game is over. It listens on /ws/me/ for a game of the student's classes opening or ending, and then
 * fetches the list again (/me/games.json); it also refreshes every 30 s and whenever the tab comes back,
 * so a missed message (a server restart) is caught up.
 *
 * Classplay.watchClassGames(listUrl, onList) calls onList(sessions) with the open games, soonest first:
 *   [{id, title, game, status, status_text, joined, url, join_url}]
 */
(function () {
  "use strict";
  const Classplay = (window.Classplay = window.Classplay || {});
  const REFRESH_MS = 30000;
  const RETRY_MAX_MS = 30000;

  Classplay.watchClassGames = function (listUrl, onList) {
    let delay = 1000;
    let latest = 0;

    async function refresh() {
      const asked = ++latest;
      try {
        const response = await fetch(listUrl, { credentials: "same-origin", cache: "no-store" });
        if (!response.ok || asked !== latest) return;
        const { sessions } = await response.json();
        onList(sessions);
      } catch (_error) { /* offline: the next message, tick or return to the tab tries again */ }
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(`${scheme}//${location.host}/ws/me/`);
      socket.addEventListener("open", () => { delay = 1000; refresh(); });
      socket.addEventListener("message", () => refresh());
      socket.addEventListener("close", (event) => {
        if (event.code === 4403) return; // not a signed-in student any more: the polling stays
        // Full jitter, so a class of tablets waking together does not reconnect in lockstep.
        setTimeout(connect, Math.random() * delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      });
    }

    connect();
    setInterval(refresh, REFRESH_MS);
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());
    window.addEventListener("online", refresh);
    refresh();
  };

  /** Fills `list` with one card per open game from `template` (a <template> holding the card markup). */
  Classplay.drawGameCards = function (list, template, sessions) {
    list.replaceChildren(...sessions.map((session) => {
      const card = template.content.firstElementChild.cloneNode(true);
      card.dataset.openSession = session.id;
      card.querySelector("[data-card-title]").textContent = session.title;
      card.querySelector("[data-card-game]").textContent = session.game;
      card.querySelector("[data-card-status]").textContent = session.status_text;
      const form = card.querySelector("form");
      const link = card.querySelector("[data-card-back]");
      form.action = session.join_url;
      form.hidden = session.joined;
      link.href = session.url;
      link.hidden = !session.joined;
      return card;
    }));
  };

  const BACK_HOME_SECONDS = 60;

  /** Once the student's game is over: the next open game of their classes to join with one tap, or,
   *  while there is none, a countdown back to their games page (which waits for the next one). */
  Classplay.offerNextGame = function (box, currentSessionId) {
    if (!box || box.dataset.offered) return;
    box.dataset.offered = "1";
    box.hidden = false;
    const list = box.querySelector("[data-session-list]");
    const waiting = box.querySelector("[data-next-waiting]");
    const countdown = box.querySelector("[data-next-countdown]");
    const seconds = box.querySelector("[data-next-seconds]");
    const template = document.getElementById("game-card-template");
    let left = BACK_HOME_SECONDS;
    let stayed = false;
    let others = [];
    const timer = setInterval(() => {
      if (stayed || others.length) return;
      left -= 1;
      seconds.textContent = String(Math.max(0, left));
      if (left <= 0) {
        clearInterval(timer);
        location.assign(box.dataset.home);
      }
    }, 1000);
    box.querySelector("[data-next-stay]").addEventListener("click", () => {
      stayed = true;
      countdown.hidden = true;
    });
    Classplay.watchClassGames(box.dataset.openSessions, (sessions) => {
      others = sessions.filter((session) => session.id !== currentSessionId);
      Classplay.drawGameCards(list, template, others);
      waiting.hidden = others.length > 0;
    });
  };
})();
