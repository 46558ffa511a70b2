/* The scheduling form: show only the chosen game's settings; hidden ones are disabled so they are not sent. */
(function () {
  "use strict";
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("id_game"));
  function show() {
    for (const box of document.querySelectorAll("[data-game-settings]")) {
      const on = box.dataset.gameSettings === select.value;
      box.hidden = !on;
      for (const input of box.querySelectorAll("input, select")) /** @type {HTMLInputElement} */ (input).disabled = !on;
    }
  }
  select.addEventListener("change", show);
  show();
})();
