/* The teacher's homework page: while the homework is open, its progress table is fetched again every
   few seconds, so who is playing, who has finished and who is late stay current without a reload. */
(function () {
  "use strict";
  // The reminder list's Print button (shown only where script runs: the browser's own print works too).
  const print = document.querySelector("[data-print]");
  if (print) {
    print.hidden = false;
    print.addEventListener("click", () => window.print());
  }
  const section = document.querySelector("[data-homework-live]");
  if (!section || !section.dataset.homeworkLive) return;
  const url = section.dataset.homeworkLive;
  const EVERY_MS = 10000;
  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const holder = document.createElement("div");
      holder.innerHTML = await response.text();
      const fresh = holder.querySelector("[data-homework-progress]");
      const current = section.querySelector("[data-homework-progress]");
      if (fresh && current) current.replaceWith(fresh);
    } catch (error) {
      /* offline for a moment: the next round tries again */
    }
  }
  setInterval(refresh, EVERY_MS);
})();
