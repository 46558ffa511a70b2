/* Classplay live client: one websocket per device, shared by every game screen.
 *
 * - reconnects with exponential backoff and full jitter (a class of 30 tablets waking at once must not
 *   hammer the server in lockstep), immediately when the browser says it is back online or visible;
 * - resyncs: on every (re)connect it sends the last sequence number it saw per table, and the server
 *   sends only tables that moved on (or a fresh snapshot);
 * - resends every action that was not acknowledged, with the same idempotency key, so a double tap or
 *   a drop mid-send is applied exactly once; an action the server could not save yet (its database is
 *   restarting: error "unavailable") is kept and sent again after a short, growing, jittered wait;
 * - keeps the server's clock offset (from round trips) so countdowns draw the server's deadline;
 * - detects a dead connection (a sleeping tablet) by heartbeat and replaces it;
 * - moves at once when the server asks it to (close code 4010: another server process is less busy).
 */
(function () {
  "use strict";
  const Classplay = (window.Classplay = window.Classplay || {});
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, k) => obj[k]));

  const BACKOFF_BASE_MS = 500;
  const BACKOFF_MAX_MS = 15000;
  const HEARTBEAT_MS = 15000;
  const DEAD_AFTER_MS = 40000;
  const RESEND_BASE_MS = 1000; // an "unavailable" action: first resend within 1 s, then up to 8 s
  const RESEND_MAX_MS = 8000;
  const REBALANCE_CLOSE_CODE = 4010; // games/realtime/balance.py
  const REBALANCE_JITTER_MS = 500;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }

  class LiveConnection {
    constructor({ url, onMessage, onStatus }) {
      this.url = url;
      this.onMessage = onMessage || (() => {});
      this.onStatus = onStatus || (() => {});
      this.lastSeq = {};
      this.pending = new Map(); // key -> {message, resolve, reject}
      this.attempt = 0;
      this.offset = 0; // server time minus local time, seconds
      this.bestRtt = Infinity;
      this.status = "connecting";
      this.stopped = false;
      this.lastHeard = Date.now();
      window.addEventListener("online", () => this.reconnectSoon(0));
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") this.checkAlive();
      });
      this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
      this.open();
    }

    setStatus(status, detail) {
      this.status = status;
      this.onStatus(status, detail || {});
    }

    open() {
      clearTimeout(this.retryTimer);
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(scheme + "//" + location.host + this.url);
      this.socket = socket;
      this.setStatus(this.attempt ? "reconnecting" : "connecting");
      socket.addEventListener("open", () => {
        this.attempt = 0;
        this.lastHeard = Date.now();
        this.setStatus("open");
        this.sendRaw({ type: "hello", last_seq: this.lastSeq });
        this.ping();
        for (const { message } of this.pending.values()) this.sendRaw(message);
      });
      socket.addEventListener("message", (event) => this.receive(event.data));
      socket.addEventListener("close", (event) => {
        if (socket !== this.socket) return;
        if (event.code === 4409) {
          this.stopped = true;
          this.setStatus("replaced");
          return;
        }
        if (event.code === 4403 || event.code === 4404) {
          this.stopped = true;
          this.setStatus("refused");
          return;
        }
        if (event.code === REBALANCE_CLOSE_CODE) {
          // The server asks this device to move to a less busy server process: at once, quietly.
          this.setStatus("reconnecting");
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => this.open(), Math.random() * REBALANCE_JITTER_MS);
          return;
        }
        this.reconnectSoon();
      });
    }

    reconnectSoon(delay) {
      if (this.stopped) return;
      clearTimeout(this.retryTimer);
      if (delay === undefined) {
        const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
        delay = Math.random() * ceiling; // full jitter
        this.attempt += 1;
      }
      this.setStatus("offline", { retryAt: Date.now() + delay });
      this.retryTimer = setTimeout(() => this.open(), delay);
    }

    /** Take over again after another device held the seat ("use this device"). */
    resume() {
      this.stopped = false;
      this.attempt = 0;
      this.open();
    }

    checkAlive() {
      if (this.stopped) return;
      const socket = this.socket;
      if (!socket || socket.readyState === WebSocket.CLOSED) {
        this.reconnectSoon(0);
      } else if (socket.readyState === WebSocket.OPEN) {
        if (Date.now() - this.lastHeard > DEAD_AFTER_MS) {
          // A sleeping device's socket can look open for minutes: drop it and start afresh.
          this.socket = null;
          try {
            socket.close();
          } catch (_e) {
            /* already gone */
          }
          this.reconnectSoon(0);
        } else {
          this.ping();
        }
      }
    }

    ping() {
      this.pingSentAt = Date.now();
      this.sendRaw({ type: "ping" });
    }

    sendRaw(message) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) {
        this.socket.send(JSON.stringify(message));
        return true;
      }
      return false;
    }

    /** Send an action; resolves with the ack, rejects with {code, message}. Resent until acknowledged. */
    act(table, action) {
      const key = newKey();
      const message = { type: "action", table, key, action };
      return new Promise((resolve, reject) => {
        this.pending.set(key, { message, resolve, reject });
        this.sendRaw(message);
      });
    }

    receive(raw) {
      let message;
      try {
        message = JSON.parse(raw);
      } catch (_e) {
        return;
      }
      this.lastHeard = Date.now();
      if (message.type === "bundle") {
        // Several messages in one frame (a session change with the tables it moved on), in order.
        for (const inner of message.messages || []) this.handle(Object.assign(inner, { server_time: message.server_time }));
        return;
      }
      this.handle(message);
    }

    handle(message) {
      if (typeof message.server_time === "number") this.observeClock(message);
      if (message.type === "table") {
        const known = this.lastSeq[message.table];
        if (known !== undefined && message.seq < known) return; // an older view overtaken by a newer one
        this.lastSeq[message.table] = message.seq;
      } else if (message.type === "error" && message.code === "unavailable" && this.pending.has(message.key)) {
        this.resendLater(message.key);
        return; // not the game's business: the move is kept, and the banner says so
      } else if ((message.type === "ack" || message.type === "error") && message.key) {
        const pending = this.pending.get(message.key);
        if (pending) {
          this.pending.delete(message.key);
          clearTimeout(pending.resendTimer);
          if (this.status === "saving" && ![...this.pending.values()].some((p) => p.resendTimer)) {
            this.setStatus("open");
          }
          if (message.type === "ack") pending.resolve(message);
          else pending.reject({ code: message.code, message: message.message });
        }
      }
      this.onMessage(message);
    }

    /** The server could not save this action yet: send it again (same key) after a jittered wait. */
    resendLater(key) {
      const pending = this.pending.get(key);
      pending.tries = (pending.tries || 0) + 1;
      const ceiling = Math.min(RESEND_MAX_MS, RESEND_BASE_MS * 2 ** (pending.tries - 1));
      const delay = ceiling / 2 + (Math.random() * ceiling) / 2;
      clearTimeout(pending.resendTimer);
      pending.resendTimer = setTimeout(() => this.resendNow(key), delay);
      this.setStatus("saving", { retryAt: Date.now() + delay });
    }

    /** Send every action waiting for a resend at once ("Try now", or its timer). */
    resendNow(only) {
      for (const [key, pending] of this.pending) {
        if (!pending.resendTimer || (only && key !== only)) continue;
        clearTimeout(pending.resendTimer);
        pending.resendTimer = null;
        this.sendRaw(pending.message);
      }
    }

    observeClock(message) {
      const now = Date.now();
      if (message.type === "pong" && this.pingSentAt) {
        const rtt = now - this.pingSentAt;
        this.pingSentAt = null;
        if (rtt <= this.bestRtt * 1.5 || rtt < 200) {
          this.bestRtt = Math.min(this.bestRtt, rtt);
          this.offset = message.server_time - (now - rtt / 2) / 1000;
        }
      } else if (this.bestRtt === Infinity) {
        this.offset = message.server_time - now / 1000;
      }
    }

    serverNow() {
      return Date.now() / 1000 + this.offset;
    }
  }

  /** Draw a countdown of an absolute server deadline in `element`, ticking locally. */
  function countdown(connection, element, deadline) {
    if (!element) return;
    clearInterval(element._classplayTimer);
    // Homework with its timers off gives each move an hour, and its clock stops while the student is
    // away: no limit to watch, so nothing is drawn.
    if (deadline === null || deadline === undefined || document.querySelector("[data-untimed]")) {
      element.textContent = "";
      element.hidden = true;
      return;
    }
    element.hidden = false;
    element.setAttribute("role", "timer");
    const draw = () => {
      const left = Math.max(0, Math.ceil(deadline - connection.serverNow()));
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, "0");
      element.textContent = minutes + ":" + seconds;
      element.classList.toggle("countdown-low", left <= 10);
      element.setAttribute(
        "aria-label",
        interpolate(gettext("%(seconds)s seconds left"), { seconds: left }, true)
      );
      if (left <= 0) clearInterval(element._classplayTimer);
    };
    draw();
    element._classplayTimer = setInterval(draw, 250);
  }

  Classplay.LiveConnection = LiveConnection;
  Classplay.countdown = countdown;
  Classplay.newKey = newKey;
})();
