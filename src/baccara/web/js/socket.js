// What every live socket of the casino's pages does the same way: it opens (asking,
// first, for the address it may open — a ticket takes a request), parses each message
// and hands it on, pings every 15 s and counts a connection that has not answered in
// 10 s as dead, and after a drop opens again by itself with growing, jittered delays
// (the server sends a fresh snapshot on every connection, so a page catches up on what
// it missed). It opens again too when the browser comes back online or the tab is
// shown again. A table's socket (live.js) and the lobby's (lobbyfeed.js) are the two
// kinds; each says where it opens, what its messages mean and what its close codes do.

import { t } from "./i18n.js";

const PING_EVERY_MS = 15000;
const SILENCE_MS = 10000; // no answer to a ping this long: the connection is dead
const MAX_DELAY_MS = 10000;

/** The delay before the attempt-th reconnection: doubling from 0.5 s to 10 s, ±25 %. */
export function backoff(attempt) {
  const base = Math.min(MAX_DELAY_MS, 500 * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

export class LiveSocket {
  constructor() {
    this.attempt = 0;
    this.socket = null;
    this.opening = false; // asking for the address (a ticket) before the socket opens
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.silenceTimer = null;
    this.wake = () => {
      if (!this.stopped && !this.socket && !this.opening && document.visibilityState === "visible") this.connect();
    };
  }

  // --- what a kind of socket says --------------------------------------------------

  /** The ws:// address to open now (may ask the server first). */
  async address() {
    throw new Error("a live socket says where it opens");
  }

  /** The address could not be had (the request for a ticket failed). */
  refused() {
    this.retry();
  }

  /** The socket closed by itself (the server's code in event.code). */
  closed() {
    this.retry();
  }

  /** A message, parsed. */
  dispatch() {}

  /** Every state change: "connecting", "reconnecting" (detail: when), "live", "closed". */
  status() {}

  // --- the machinery -----------------------------------------------------------------

  start() {
    this.stopped = false;
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  stop(reason = "leaving the page") {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.silenceTimer);
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close(1000, reason);
      this.socket = null;
    }
  }

  /** Drop the connection and catch up with a fresh snapshot (a gap, or silence). */
  resync() {
    if (this.socket) this.socket.close(4000, "resync");
  }

  async connect() {
    clearTimeout(this.retryTimer);
    if (this.opening) return;
    this.status(this.attempt ? "reconnecting" : "connecting");
    this.opening = true;
    let url;
    try {
      url = await this.address();
    } catch (error) {
      this.opening = false;
      if (!this.stopped) this.refused(error);
      return;
    }
    this.opening = false;
    if (this.stopped || this.socket) return;
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.opened();
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
      if (!this.stopped) this.closed(event);
    };
  }

  /** The socket is open (before its first message). */
  opened() {}

  /** The socket's snapshot came: it is live, and the next drop retries quickly again. */
  live() {
    this.attempt = 0;
    this.status("live");
  }

  retry() {
    if (this.stopped) return;
    const delay = backoff(this.attempt);
    this.attempt += 1;
    this.retrySeconds = Math.ceil(delay / 1000);
    this.status("reconnecting", t("session.socket.retry_in", { n: this.retrySeconds }));
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Send `text` now if the socket is open; false if it is not (the message is dropped). */
  send(text) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  ping() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send("ping");
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.resync(), SILENCE_MS);
  }
}

/** ws: or wss:, as the page was loaded, to this host and `path`. */
export function socketAddress(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}
