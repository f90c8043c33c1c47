// A table's WebSocket: the snapshot first, then every event as this user may see it.
// It reconnects, pings and catches up as every live socket does (socket.js).
// Each connection opens with a ticket asked for just before (POST /api/ws-ticket, good
// for one socket and 30 seconds): the token itself never goes in a URL. A socket closed
// because its token was revoked or expired (4401) opens again if the page holds another
// token by then (a new password's), and signs the page out only if it does not. Signed
// out, the socket opens with no ticket: a watcher's, who sees what everyone sees. A table
// that does not exist (4404) or has closed (4410) is never asked for again.

import { ApiError, get, socketTicket, token } from "./api.js";
import { locale, t } from "./i18n.js";
import { LiveSocket, socketAddress } from "./socket.js";

export class TableSocket extends LiveSocket {
  /**
   * handlers: onSnapshot(msg), onEvents(msg), onSeats(msg), onBalance(msg),
   * onRealityCheck(msg), onBend(msg), onRefused(msg), onClosed(msg), onGone(why) (the socket was refused: "missing", no
   * such table, 4404; "closed", 4410), onStatus(state, detail) with state "connecting" | "live" |
   * "reconnecting" | "closed".
   */
  constructor(tableId, handlers) {
    super();
    this.tableId = tableId;
    this.handlers = handlers;
    this.connections = 0;
    this.bearer = null; // the token the socket opening now was asked for with
  }

  stop() {
    super.stop("leaving the table");
  }

  status(state, detail = "") {
    if (this.handlers.onStatus) this.handlers.onStatus(state, detail);
  }

  async address() {
    this.bearer = token();
    const ticket = this.bearer ? await socketTicket() : null; // signed out: a watcher's
    const query = ticket === null ? "" : `?ticket=${encodeURIComponent(ticket)}`;
    return socketAddress(`/ws/tables/${this.tableId}${query}`);
  }

  refused(error) {
    if (error instanceof ApiError && error.status === 401) this.unauthorized(this.bearer);
    else this.retry();
  }

  opened() {
    this.connections += 1;
  }

  closed(event) {
    if (event.code === 4401) {
      this.unauthorized(this.bearer);
      return;
    }
    if (event.code === 4429) {
      this.status("closed", locale() === "en" && event.reason ? event.reason : t("table.socket.too_many")); // the casino words it in English
      return;
    }
    if (event.code === 4404 || event.code === 4410) { // no such table, or closed: no retry
      const why = event.code === 4404 ? "missing" : "closed";
      this.status("closed", why === "missing" ? t("table.socket.missing") : t("table.socket.closed"));
      if (this.handlers.onGone) this.handlers.onGone(why);
      else if (this.handlers.onClosed) this.handlers.onClosed({ type: "table-closed" });
      return;
    }
    this.retry();
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
    this.status("closed", t("table.socket.signed_out"));
    if (this.handlers.onUnauthorized) this.handlers.onUnauthorized();
  }

  dispatch(data) {
    const h = this.handlers;
    switch (data.type) {
      case "snapshot":
        this.live();
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
      case "bend": // the squeezer bends a card (no face in it): squeezeplay.js
        if (h.onBend) h.onBend(data);
        break;
      case "refused":
        if (h.onRefused) h.onRefused(data);
        break;
      case "table-closed":
        this.stopped = true;
        this.status("closed", t("table.socket.closed"));
        if (h.onClosed) h.onClosed(data);
        break;
      default:
        break;
    }
  }
}
