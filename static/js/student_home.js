/* The student's home page: the open games of their classes, redrawn the moment one opens or ends. */
(function () {
  "use strict";
  const box = document.getElementById("sessions");
  if (!box) return;
  const list = box.querySelector("[data-session-list]");
  const none = box.querySelector("[data-no-sessions]");
  const announcer = box.querySelector("[data-games-announcer]");
  const template = document.getElementById("game-card-template");
  // The game's title keeps its own order inside an Arabic sentence ("Line Up!", never "!Line Up").
  const isolated = (text) => (document.documentElement.dir === "rtl" ? `\u2068${text}\u2069` : text);
  let shown = new Set([...list.querySelectorAll("[data-open-session]")].map((card) => card.dataset.openSession));

  window.Classplay.watchClassGames(box.dataset.openSessions, (sessions) => {
    const fresh = sessions.filter((session) => !shown.has(String(session.id)));
    window.Classplay.drawGameCards(list, template, sessions);
    none.hidden = sessions.length > 0;
    shown = new Set(sessions.map((session) => String(session.id)));
    if (fresh.length) {
      announcer.textContent = window.interpolate(
        window.gettext("Your teacher opened %(title)s. Tap Join."), { title: isolated(fresh[0].title) }, true);
      const button = list.querySelector(`[data-open-session="${fresh[0].id}"] button, ` +
        `[data-open-session="${fresh[0].id}"] a:not([hidden])`);
      if (button && !document.activeElement.closest("form, a, button")) button.focus({ preventScroll: true });
    }
  });
})();
