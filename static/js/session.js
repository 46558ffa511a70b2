/* The live page controller, shared by the student device, the teacher console and the projector.
 *
 * It owns the connection (live.js), the offline banner, the lobby and participant list, one card per
 * table and the teacher's controls, and hands every table's view to the game's own module
 * (static/js/games/<game>.js, see docs/frontend.md).
 */
(function () {
  "use strict";
  const Classplay = (window.Classplay = window.Classplay || {});
  const games = (Classplay.games = Classplay.games || {});
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((s, p, n) => (n === 1 ? s : p));
  const fill = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, k) => obj[k]));
  // On an Arabic page a value (a name, a number) keeps its own order inside the sentence: FSI … PDI, as
  // the game modules do (static/js/games/common.js, docs/i18n.md).
  const interpolate = (fmt, obj, named) => {
    if (document.documentElement.dir !== "rtl") return fill(fmt, obj, named);
    const values = Object.fromEntries(Object.entries(obj).map(([key, value]) => [key, `\u2068${value}\u2069`]));
    return fill(fmt, values, named);
  };

  Classplay.registerGame = function (name, module) {
    games[name] = module;
    document.dispatchEvent(new CustomEvent("classplay:game-registered", { detail: name }));
  };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }
  Classplay.el = el;

  /** The projector's wall of ``count`` table cards: the number of columns that lets their text be
   *  largest, for cards of ``width`` × ``height`` text units (ems) in 85 % of the window's height (the
   *  rest is the page's title). Returns ``{cols, rows, size}``, ``size`` the text unit in px. */
  Classplay.wallLayout = function (count, width, height) {
    const screenWidth = window.innerWidth || 16;
    const screenHeight = (window.innerHeight || 9) * 0.85;
    let best = { cols: 1, rows: count, size: 0 };
    for (let cols = 1; cols <= Math.max(1, count); cols += 1) {
      const rows = Math.ceil(count / cols);
      const size = Math.min(screenWidth / cols / width, screenHeight / rows / height);
      if (size > best.size) best = { cols, rows, size };
    }
    return best;
  };

  const STATUS_TEXT = {
    scheduled: () => gettext("Not open yet"),
    lobby: () => gettext("Lobby open"),
    running: () => gettext("Playing"),
    paused: () => gettext("Paused"),
    finished: () => gettext("Finished"),
    cancelled: () => gettext("Cancelled"),
  };

  /** A press on any of these holds its table's updates back (see LivePage.renderTable), for at most
   *  PRESS_HOLD_MS. */
  const PRESSABLE = "button, a, input, select, textarea, label, summary, [role=button], [tabindex]";
  const PRESS_HOLD_MS = 1500;
  const PRESS_CLICK_WAIT_MS = 100;

  class LivePage {
    constructor(root) {
      this.root = root;
      this.sessionId = Number(root.dataset.session);
      this.role = root.dataset.role; // "player" | "teacher" | "projector"
      this.game = root.dataset.game;
      this.session = null;
      this.me = {};
      this.tables = new Map(); // table id -> latest table message
      this.cards = new Map(); // table id -> {card, body, clock}
      this.banner = document.getElementById("live-banner");
      this.announcer = document.getElementById("live-announcer");
      this.tablesBox = root.querySelector("[data-tables]");
      this.connection = new Classplay.LiveConnection({
        url: `/ws/sessions/${this.sessionId}/?as=${this.role === "player" ? "student" : this.role}`,
        onMessage: (message) => this.receive(message),
        onStatus: (status, detail) => this.showConnection(status, detail),
      });
      this.bindForms();
      document.addEventListener("classplay:game-registered", () => this.renderAll());
      // A press on a control holds back its table's updates until it ends (see renderTable): at its click
      // (seen here first, so the update is drawn after the click's own handlers), or shortly after the
      // finger lifts without one (it slid off the button).
      document.addEventListener("click", () => this.pressEnded(), true);
      for (const type of ["pointerup", "pointercancel"]) {
        document.addEventListener(type, () => setTimeout(() => this.pressEnded(), PRESS_CLICK_WAIT_MS), true);
      }
    }

    // --- connection state ----------------------------------------------------------------------

    showConnection(status, detail) {
      const banner = this.banner;
      if (!banner) return;
      clearInterval(this.bannerTimer);
      const text = banner.querySelector("[data-banner-text]");
      const retry = banner.querySelector("[data-banner-retry]");
      banner.dataset.status = status;
      if (status === "open" || status === "connecting") {
        banner.hidden = true;
        return;
      }
      banner.hidden = false;
      retry.hidden = status === "refused";
      if (status === "replaced") {
        text.textContent = gettext("This game is open on another device, so this one has stopped.");
        retry.textContent = gettext("Use this device");
        retry.onclick = () => this.connection.resume();
      } else if (status === "refused") {
        text.textContent = gettext("You cannot watch this game from here.");
      } else if (status === "saving") {
        // Connected, but the server could not save a move yet (its database is restarting).
        retry.textContent = gettext("Try now");
        retry.onclick = () => this.connection.resendNow();
        text.textContent = gettext("The server is catching up. Your move is kept and will be sent again.");
      } else {
        retry.textContent = gettext("Try now");
        retry.onclick = () => this.connection.reconnectSoon(0);
        const draw = () => {
          const left = Math.max(0, Math.ceil(((detail.retryAt || Date.now()) - Date.now()) / 1000));
          text.textContent = navigator.onLine === false
            ? gettext("No connection. Your answers are kept; we reconnect when the network is back.")
            : interpolate(gettext("Connection lost. Reconnecting in %(seconds)s s… Your answers are kept."),
                { seconds: left }, true);
        };
        draw();
        this.bannerTimer = setInterval(draw, 500);
      }
    }

    announce(text) {
      if (!this.announcer || !text) return;
      this.announcer.textContent = "";
      window.setTimeout(() => (this.announcer.textContent = text), 50);
    }

    // --- messages --------------------------------------------------------------------------------

    receive(message) {
      if (message.type === "session") {
        const before = this.session && this.session.status;
        this.session = message.session;
        this.me = message;
        this.renderSession(before);
      } else if (message.type === "table") {
        this.tables.set(message.table, message);
        this.renderTable(message);
      } else if (message.type === "error" && !message.key) {
        this.announce(message.message);
      }
    }

    renderSession(before) {
      const session = this.session;
      const status = session.status;
      this.root.dataset.status = status;
      for (const node of document.querySelectorAll("[data-session-status]")) {
        node.textContent = (STATUS_TEXT[status] || (() => status))();
      }
      if (session.when) {
        for (const node of document.querySelectorAll("[data-session-when]")) {
          node.replaceChildren(el("time", { datetime: session.when.at }, session.when.text));
        }
      }
      for (const node of document.querySelectorAll("[data-show-when]")) {
        let show = node.dataset.showWhen.split(" ").includes(status);
        if (node.dataset.showLocked) show = show && String(session.lobby_locked) === node.dataset.showLocked;
        node.hidden = !show;
      }
      const paused = document.getElementById("live-paused");
      if (paused) paused.hidden = status !== "paused";
      if (before && before !== status) {
        this.announce((STATUS_TEXT[status] || (() => status))());
        // A note from the page's load ("Scheduled…") no longer says where the game stands.
        for (const note of document.querySelectorAll("main > .messages")) note.remove();
      }
      if (this.role === "player") this.renderPlayerState();
      else this.renderParticipants();
      // Tables that no longer exist for this viewer (a removed student) disappear.
      const visible = new Set(this.role === "player" ? [this.me.table] : (session.tables || []).map((t) => t.id));
      for (const [id, card] of this.cards) {
        if (!visible.has(id)) {
          card.card.remove();
          this.cards.delete(id);
          this.tables.delete(id);
        }
      }
      for (const table of this.tables.values()) this.renderTable(table);
      if (status === "finished" && this.role === "teacher") {
        const link = document.querySelector("[data-results-link]");
        if (link) link.hidden = false;
      }
    }

    renderPlayerState() {
      const box = this.root.querySelector("[data-player-state]");
      if (!box) return;
      const status = this.session.status;
      let text = "";
      if (this.me.removed) text = gettext("Your teacher has taken you out of this game.");
      else if (status === "cancelled") text = gettext("This game was cancelled.");
      else if (!this.me.table && (status === "lobby" || status === "scheduled")) {
        text = gettext("You're in! Wait for your teacher to start the game.");
        const present = (this.session.counts || {}).present || 0;
        if (present > 1) {
          text += " " + interpolate(ngettext("%(n)s classmate is in with you.", "%(n)s classmates are in with you.",
            present - 1), { n: present - 1 }, true);
        }
      } else if (!this.me.table && status === "finished") text = gettext("This game has finished.");
      else if (!this.me.table) text = gettext("You're in. Your teacher will seat you in a moment.");
      box.textContent = text;
      box.hidden = !text;
      if (this.me.removed || status === "finished" || status === "cancelled") {
        if (Classplay.offerNextGame) Classplay.offerNextGame(this.root.querySelector("[data-next-game]"), this.sessionId);
      }
    }

    /** The lobby's tables (or teams): drag a student, or pick from the list beside each name. */
    renderArrangement() {
      const box = this.root.querySelector("[data-arrangement]");
      if (!box || this.role !== "teacher") return;
      const people = (this.session.participants || []).filter((p) => p.status === "present");
      if (this.session.status !== "lobby" || !people.some((p) => p.planned_table)) {
        box.replaceChildren();
        return;
      }
      const teams = this.session.seating === "teams";
      const highest = Math.max(0, ...people.map((p) => p.planned_table || 0));
      const count = teams ? 2 : highest + 1; // one empty table to start a new one
      const name = (n) => (teams ? (n === 1 ? gettext("Blue team") : gettext("Yellow team"))
        : interpolate(gettext("Table %(n)s"), { n }, true));
      const plan = (person, table) => this.postForm(
        this.root.dataset.planUrl.replace("/0/", `/${person.id}/`), { table: table || "" });
      const columns = [];
      for (let n = 1; n <= count; n += 1) {
        const members = people.filter((p) => p.planned_table === n);
        const list = el("ul", { class: "arrangement-list", "data-plan-table": n });
        for (const person of members) {
          const select = el("select", { "aria-label": interpolate(gettext("Table for %(name)s"), { name: person.name }, true) },
            ...Array.from({ length: count }, (_v, i) => el("option", { value: i + 1, selected: i + 1 === n }, name(i + 1))));
          select.addEventListener("change", () => plan(person, Number(select.value)));
          const level = person.level ? el("span", { class: "muted" }, interpolate(gettext("level %(n)s"), { n: person.level }, true)) : null;
          const item = el("li", { class: "arrangement-student", draggable: "true", "data-participant": person.id },
            el("span", { class: "participant-name" }, person.name), level, select);
          item.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", String(person.id)));
          list.append(item);
        }
        list.addEventListener("dragover", (event) => { event.preventDefault(); list.classList.add("is-drop"); });
        list.addEventListener("dragleave", () => list.classList.remove("is-drop"));
        list.addEventListener("drop", (event) => {
          event.preventDefault();
          list.classList.remove("is-drop");
          const person = people.find((p) => String(p.id) === event.dataTransfer.getData("text/plain"));
          if (person && person.planned_table !== n) plan(person, n);
        });
        columns.push(el("section", { class: "arrangement-table" },
          el("h3", {}, name(n), " ", el("span", { class: "muted" }, `(${members.length})`)), list));
      }
      const unplaced = people.filter((p) => !p.planned_table);
      if (unplaced.length) {
        columns.push(el("p", { class: "help" }, interpolate(gettext("Seated automatically: %(names)s"),
          { names: unplaced.map((p) => p.name).join(", ") }, true)));
      }
      box.replaceChildren(...columns);
    }

    async postForm(url, fields) {
      const body = new FormData();
      body.append("csrfmiddlewaretoken", csrfInput().value);
      for (const [key, value] of Object.entries(fields)) body.append(key, value);
      const response = await fetch(url, { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
      const result = await response.json().catch(() => ({ ok: response.ok, message: "" }));
      const box = document.getElementById("console-message");
      if (box) {
        box.textContent = result.message || "";
        box.className = result.ok ? "console-message" : "console-message is-error";
      }
      return result;
    }

    renderParticipants() {
      this.renderArrangement();
      const list = this.root.querySelector("[data-participants]");
      if (!list) return;
      const people = this.session.participants || [];
      const counts = this.root.querySelectorAll("[data-participant-count]");
      const present = people.filter((p) => p.status === "present");
      const connected = present.filter((p) => p.connected);
      for (const node of counts) {
        node.textContent = interpolate(
          ngettext("%(present)s student in, %(connected)s connected now", "%(present)s students in, %(connected)s connected now", present.length),
          { present: present.length, connected: connected.length }, true);
      }
      if (this.role !== "teacher") {
        list.replaceChildren(...people.filter((p) => p.status === "present").map((p) =>
          el("li", { class: "participant" + (p.connected ? " is-connected" : "") }, el("bdi", {}, p.name))));
        this.renderMissing();
        return;
      }
      this.renderLog();
      const template = this.root.dataset.participantUrl; // .../participants/0/kind/
      const tableNames = new Map((this.session.tables || []).map((t) => [t.id, t.number]));
      // Whoever waits to be let in comes first: a latecomer's "Let in" is never below a class of names.
      const waitingFirst = [...people].sort((a, b) => Number(b.status === "waiting") - Number(a.status === "waiting"));
      list.replaceChildren(...waitingFirst.map((p) => {
        const actions = [];
        const form = (kind, label, style) => el("form", {
          method: "post", action: template.replace("/0/", `/${p.id}/`).replace("kind", kind), "data-live-form": "",
        }, csrfInput(), el("button", { type: "submit", class: style || "secondary small" }, label));
        if (p.status === "waiting") actions.push(form("admit", gettext("Let in"), "small"));
        if (p.status === "present") actions.push(form("remove", gettext("Remove")));
        if (p.status === "removed") actions.push(form("readmit", gettext("Readmit")));
        const statusText = p.status === "waiting" ? gettext("waiting to be let in")
          : p.status === "removed" ? gettext("removed")
          : p.connected ? gettext("connected") : gettext("not connected");
        const where = p.table && tableNames.has(p.table) ? interpolate(gettext("table %(n)s"), { n: tableNames.get(p.table) }, true) : "";
        return el("li", { class: `participant is-${p.status}` + (p.connected ? " is-connected" : "") },
          el("span", { class: "presence-dot", "aria-hidden": "true" }),
          el("span", { class: "participant-name" }, p.name),
          p.accommodations && p.accommodations.length
            ? el("span", { class: "participant-accommodations badge", title: p.accommodations.join(", ") },
              interpolate(gettext("Accommodations: %(list)s"), { list: p.accommodations.join(", ") }, true))
            : null,
          el("span", { class: "participant-status" }, [statusText, where].filter(Boolean).join(" · ")),
          el("span", { class: "participant-actions" }, ...actions));
      }));
    }

    /** The projector's lobby: the class's students who have not joined yet. */
    renderMissing() {
      const box = this.root.querySelector("[data-missing]");
      if (!box) return;
      const missing = this.session.missing || [];
      box.hidden = missing.length === 0;
      box.querySelector("[data-missing-count]").textContent = interpolate(
        ngettext("Still to join: %(n)s student", "Still to join: %(n)s students", missing.length),
        { n: missing.length }, true);
      box.querySelector("[data-missing-names]").replaceChildren(...missing.map((name) => el("li", {}, el("bdi", {}, name))));
    }

    /** The console's control log, as sentences with names, newest first. */
    renderLog() {
      const list = this.root.querySelector("[data-control-log]");
      if (!list || !this.session.log) return;
      if (!this.session.log.length) {
        list.replaceChildren(el("li", { class: "muted" }, gettext("Nothing yet.")));
        return;
      }
      list.replaceChildren(...this.session.log.map((line) =>
        el("li", {}, el("time", { datetime: line.at }, line.time), " ", line.text)));
    }

    // --- tables ----------------------------------------------------------------------------------

    cardFor(table) {
      let card = this.cards.get(table.table);
      if (card) return card;
      const body = el("div", { class: "table-body" });
      // Every game's device screen draws its own turn clock beside the move; the card's clock is for the
      // console and the projector, where tables are seen side by side (a module that finds this clock
      // in its card draws none of its own).
      const clock = this.role === "player" ? null : el("span", { class: "countdown", hidden: true });
      const header = el("header", { class: "table-header" },
        el("h2", { class: "table-title" }, interpolate(gettext("Table %(n)s"), { n: table.number }, true)),
        clock);
      const section = el("section", { class: "table-card", "data-table-id": table.table }, header);
      const controls = this.role === "teacher" ? this.tableControls(table) : null;
      if (controls) header.append(controls);
      section.append(body);
      if (this.role === "player" && this.tables.size <= 1) {
        section.classList.add("is-own-table");
        header.hidden = false;
      }
      this.tablesBox.append(section);
      card = { card: section, body, clock, controls, pressed: false, waiting: null };
      body.addEventListener("pointerdown", (event) => {
        if (event.target instanceof Element && event.target.closest(PRESSABLE)) card.pressed = true;
      });
      this.cards.set(table.table, card);
      return card;
    }

    tableControls(table) {
      const base = this.root.dataset.tableUrl.replace("/0/", `/${table.table}/`);
      const warnings = { advance: this.root.dataset.advanceConfirm || null, end: gettext("End this table now?") };
      const form = (kind, label, extra) => el("form", { method: "post", action: base.replace("kind", kind), "data-live-form": "", "data-confirm": warnings[kind] || null },
        csrfInput(), extra || null, el("button", { type: "submit", class: "secondary small" }, label));
      return el("div", { class: "table-controls", role: "group", "aria-label": interpolate(gettext("Table %(n)s controls"), { n: table.number }, true) },
        form("extend", gettext("+30 s"), el("input", { type: "hidden", name: "seconds", value: "30" })),
        form("advance", gettext("Move on")),
        form("end", gettext("End table")));
    }

    pressEnded() {
      for (const card of this.cards.values()) {
        if (!card.pressed) continue;
        card.pressed = false;
        clearTimeout(card.pressTimer);
        const waiting = card.waiting;
        card.waiting = null;
        if (waiting) setTimeout(() => this.renderTable(this.tables.get(waiting.table) || waiting), 0);
      }
    }

    renderAll() {
      for (const table of this.tables.values()) this.renderTable(table);
    }

    renderTable(table) {
      const module = games[this.game];
      const card = this.cardFor(table);
      if (card.pressed) {
        // A game redraws its whole table, so an update drawn while a finger is on a button would take
        // the button away and the tap would never become a click (a class's updates arrive all the
        // time). It is drawn as the press ends, after its click; never more than a moment late.
        card.waiting = table;
        clearTimeout(card.pressTimer);
        card.pressTimer = setTimeout(() => this.pressEnded(), PRESS_HOLD_MS);
        return;
      }
      card.card.dataset.status = table.status;
      // A table that has finished (or that the teacher ended) has nothing left to extend, move on or end.
      if (card.controls) card.controls.hidden = table.status !== "playing";
      const view = table.view || {};
      const clock = view.clock || {};
      const deadline = table.status === "playing" ? (clock.deadline ?? view.deadline ?? null) : null;
      if (card.clock) Classplay.countdown(this.connection, card.clock, deadline);
      if (!module) {
        card.body.textContent = gettext("Loading the game…");
        return;
      }
      try {
        module.render(card.body, table, this.context(table));
        if (table.status !== "playing") this.disablePlay(card.body);
      } catch (error) {
        console.error(error);
        card.body.textContent = gettext("This table could not be drawn. Reload the page.");
      }
    }

    /** Once a table is over, nothing in it may still look like a move: every control is disabled, but
     *  for those a game marks as still useful afterwards ([data-after-end], e.g. a replay or a check). */
    disablePlay(body) {
      for (const control of body.querySelectorAll("button, input, select, textarea")) {
        if (!control.closest("[data-after-end]")) control.disabled = true;
      }
    }

    context(table) {
      const page = this;
      const storageKey = (key) => `classplay:${page.sessionId}:${table.table}:${key}`;
      return {
        role: this.role,
        player: this.role === "player" ? this.me.player || null : null,
        compact: this.role === "teacher",
        session: this.session || {},
        act: (action) => page.connection.act(table.table, action),
        countdown: (element, deadline) => Classplay.countdown(page.connection, element, deadline),
        serverNow: () => page.connection.serverNow(),
        announce: (text) => page.announce(text),
        draft: (key) => {
          try {
            const raw = sessionStorage.getItem(storageKey(key));
            return raw === null ? null : JSON.parse(raw);
          } catch (_e) {
            return null;
          }
        },
        saveDraft: (key, value) => {
          try {
            if (value === null || value === undefined) sessionStorage.removeItem(storageKey(key));
            else sessionStorage.setItem(storageKey(key), JSON.stringify(value));
          } catch (_e) {
            /* private mode or full: the draft lives in memory only */
          }
        },
        gettext, ngettext, interpolate,
      };
    }

    // --- teacher controls posted without leaving the page --------------------------------------------

    bindForms() {
      document.addEventListener("submit", async (event) => {
        const form = /** @type {HTMLFormElement} */ (event.target);
        if (!form.matches("[data-live-form]")) return;
        if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
          event.preventDefault();
          return;
        }
        event.preventDefault();
        const button = /** @type {HTMLButtonElement | null} */ (form.querySelector("button[type=submit]"));
        if (button) button.disabled = true;
        try {
          const response = await fetch(form.action, {
            method: "POST", body: new FormData(form), headers: { Accept: "application/json" }, credentials: "same-origin",
          });
          const result = await response.json().catch(() => ({ ok: response.ok, message: "" }));
          const box = document.getElementById("console-message");
          if (box) {
            box.textContent = result.message || "";
            box.className = result.ok ? "console-message" : "console-message is-error";
          }
          if (result.ok && form.dataset.then) window.location.assign(form.dataset.then);
        } catch (_e) {
          const box = document.getElementById("console-message");
          if (box) box.textContent = gettext("That did not reach the server. Check the connection and try again.");
        } finally {
          if (button) button.disabled = false;
        }
      });
    }
  }

  function csrfInput() {
    const token = /** @type {HTMLInputElement | null} */ (document.querySelector("[name=csrfmiddlewaretoken]"));
    return el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: token ? token.value : "" });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.querySelector("[data-live-session]");
    if (root) Classplay.page = new LivePage(root);
  });
})();
