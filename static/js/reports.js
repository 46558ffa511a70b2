/* Report pages: poll a queued build's progress and reload the page once the report is ready.
   Works without JavaScript too: the page then shows the state at load time and a "Check again" link. */
(function () {
  "use strict";
  var box = document.querySelector("[data-build-status]");
  if (!box) return;
  var url = box.getAttribute("data-build-status");
  var bar = box.querySelector("progress");
  var state = box.querySelector(".state");
  var delay = 1000;

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (data) {
        if (bar) { bar.value = data.percent; bar.textContent = data.percent + "%"; }
        if (state) state.textContent = data.label + " · " + data.percent + "%";
        if (data.status === "done") { window.location.reload(); return; }
        if (data.status === "failed") {
          if (state) state.textContent = data.label + (data.error ? ": " + data.error : "");
          return;
        }
        delay = Math.min(delay * 1.3, 5000);
        window.setTimeout(poll, delay);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, delay);
})();
