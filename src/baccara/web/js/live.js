// A table's WebSocket: the snapshot first, then every event as this user may see it.
// After a drop it reconnects by itself with growing, jittered delays; the server sends
// a fresh snapshot on every connection, so the page catches up on what it missed.
// Each connection opens with a ticket asked for just before (POST /api/ws-ticket, good
// for one socket and 30 seconds): the token itself never goes in a URL. A socket closed
// because its token was revoked or expired (4401) opens again if the page holds another
// token by then (a new password's), and signs the page out only if it does not.

import { ApiError, get, post, token } from "./api.js";

const PING_EVERY_MS = 15000;
const SILENCE_MS = 10000; // no answer to a ping this long: the connection is dead
const MAX_DELAY_MS = 10000;

export function backoff(attempt) {
  const base = Math.min(MAX_DELAY_MS, 500 * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

export class TableSocket {
  /**
   * handlers: onSnapshot(msg), onEvents(msg), onSeats(msg), onBalance(msg),
   * onRealityCheck(msg), onClosed(msg), onStatus(state, detail) with state "connecting" | "live" |
   * "reconnecting" | "closed".
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.attempt = 0;
    this.socket = null;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.silenceTimer = null;
    this.connections = 0;
    this.opening = false;
  }

  start() {
    this.stopped = false;
    this.wake = () => {
      if (!this.stopped && !this.socket && !this.opening && document.visibilityState === "visible") this.connect();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.silenceTimer);
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close(1000, "leaving the table");
      this.socket = null;
    }
  }

  /** Drop the connection and catch up with a fresh snapshot (a gap in the events). */
  resync() {
    if (this.socket) this.socket.close(4000, "resync");
  }

  status(state, detail = "") {
    if (this.handlers.onStatus) this.handlers.onStatus(state, detail);
  }

  async connect() {
    clearTimeout(this.retryTimer);
    this.status(this.attempt ? "reconnecting" : "connecting");
    this.opening = true;
    const bearer = token();
    let ticket;
    try {
      ticket = (await post("/api/ws-ticket")).ticket;
    } catch (error) {
      this.opening = false;
      if (this.stopped) return;
      if (error instanceof ApiError && error.status === 401) {
        this.unauthorized(bearer);
        return;
      }
      this.retry();
      return;
    }
    this.opening = false;
    if (this.stopped || this.socket) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${this.tableId}?ticket=${encodeURIComponent(ticket)}`;
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.connections += 1;
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
    };
    socket.onmessage = (message) => {
      clearTimeout(this.silenceTimer);
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      this.dispatch(data);
    };
    socket.onclose = (event) => {
      clearInterval(this.pingTimer);
      clearTimeout(this.silenceTimer);
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      if (event.code === 4401) {
        this.unauthorized(bearer);
        return;
      }
      if (event.code === 4429) {
        this.status("closed", event.reason || "too many tables open at once: close one");
        return;
      }
      if (event.code === 4404) {
        this.status("closed", "this table is closed");
        if (this.handlers.onClosed) this.handlers.onClosed({ type: "table-closed" });
        return;
      }
      this.retry();
    };
  }

  /**
   * The token `bearer` was refused (revoked, or expired). Asking who is signed in
   * with it is answered 401, and the whole page signs out with it; but a token saved in
   * the meantime (a new password's, from the account page) is the page's now: api.js
   * forgets only the token that failed, and the socket opens again with the new one.
   */
  async unauthorized(bearer) {
    let good = false;
    if (bearer && token() === bearer) {
      try {
        await get("/api/me");
        good = true; // refused for a moment only: try again, with backoff
      } catch {
        /* 401: the page signs out, unless a new token came meanwhile */
      }
    }
    if (this.stopped || this.socket || this.opening) return;
    if (token() && token() !== bearer) {
      this.connect();
      return;
    }
    if (good) {
      this.retry();
      return;
    }
    this.status("closed", "signed out");
    if (this.handlers.onUnauthorized) this.handlers.onUnauthorized();
  }

  retry() {
    if (this.stopped) return;
    const delay = backoff(this.attempt);
    this.attempt += 1;
    this.status("reconnecting", `in ${Math.ceil(delay / 1000)} s`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  ping() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send("ping");
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.resync(), SILENCE_MS);
  }

  dispatch(data) {
    const h = this.handlers;
    switch (data.type) {
      case "snapshot":
        this.attempt = 0;
        this.status("live");
        if (h.onSnapshot) h.onSnapshot(data);
        break;
      case "events":
        if (h.onEvents) h.onEvents(data);
        break;
      case "seats":
        if (h.onSeats) h.onSeats(data);
        break;
      case "balance":
        if (h.onBalance) h.onBalance(data);
        break;
      case "reality-check":
        if (h.onRealityCheck) h.onRealityCheck(data);
        break;
      case "table-closed":
        this.stopped = true;
        this.status("closed", "this table is closed");
        if (h.onClosed) h.onClosed(data);
        break;
      default:
        break;
    }
  }
}
