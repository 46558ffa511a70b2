/* Every page: a table too wide for its box scrolls sideways, so it must be reachable by keyboard and
 * named for a screen reader (a focusable region named by its section's heading). Checked again when the
 * window changes size (a tablet turned). */
(function () {
  "use strict";
  function label(box) {
    const section = box.closest("section, article, main");
    const heading = section && section.querySelector("h1, h2, h3, caption");
    return heading ? heading.textContent.trim() : document.title;
  }
  function mark() {
    for (const box of document.querySelectorAll(".table-wrap")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
          box.setAttribute("aria-label", label(box));
        }
        box.dataset.scrollMarked = "1";
      } else if (!scrolls && box.dataset.scrollMarked) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        delete box.dataset.scrollMarked;
      }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  window.addEventListener("resize", mark);
})();

/* Every page: buttons and forms that ask for a little script, without inline handlers (the
 * Content-Security-Policy refuses those): [data-print] prints the page; a form with data-confirm asks
 * first (live forms ask in the page controller, which posts them without leaving the page). */
(function () {
  "use strict";
  document.addEventListener("click", (event) => {
    if (/** @type {Element} */ (event.target).closest("[data-print]")) window.print();
  });
  document.addEventListener("submit", (event) => {
    const form = /** @type {HTMLFormElement} */ (event.target);
    if (form.matches("[data-live-form]") || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
