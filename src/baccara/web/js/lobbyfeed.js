// The lobby's one WebSocket (/ws/lobby): a snapshot of every open table, then what
// changed, a few times a second at most. It needs no sign-in (nothing in it is anyone's
// own); a signed-in player's opens with a ticket (POST /api/ws-ticket), and is told
// their own balance besides, as bets in their other tabs and payouts move it, so the
// header follows. After a drop it reconnects with the table socket's growing, jittered
// delays, as every live socket does (socket.js), and the server's fresh snapshot is
// all it missed.
//
// The feed keeps the tables as the server last told them, each with its last rounds
// over (`recent`, as GET /api/tables/{id}/rounds gives them, oldest first), and the
// offset of the server's clock from this browser's, so that a round's deadline (the
// server's time) counts down here whatever this machine's clock says.

import { ApiError, get, socketTicket, token } from "./api.js";
import { setBalance } from "./session.js";
import { LiveSocket, socketAddress } from "./socket.js";

export const RECENT_KEPT = 60; // as the server's LOBBY_ROUNDS

export class LobbyFeed extends LiveSocket {
  /** onChange(tables, changedIds): after the snapshot and every change; onStatus(state). */
  constructor({ onChange, onStatus }) {
    super();
    this.onChange = onChange;
    this.onStatus = onStatus || (() => {});
    this.tables = new Map();
    this.offset = 0; // server's seconds minus this browser's
  }

  stop() {
    super.stop("leaving the lobby");
  }

  status(state) {
    if (state !== "connecting") this.onStatus(state);
  }

  /** Seconds left until a server time, on the server's clock (never below 0). */
  left(deadline) {
    return Math.max(0, deadline - (Date.now() / 1000 + this.offset));
  }

  async address() {
    let query = "";
    if (token()) {
      try {
        query = `?ticket=${encodeURIComponent(await socketTicket())}`;
      } catch (error) {
        // No ticket now: the tables still come, the balance not. Refused, whoever is
        // signed in now decides: a 401 for this token signs the page out, a token saved
        // meanwhile (a new password's) opens the next connection.
        if (error instanceof ApiError && error.status === 401) get("/api/me").catch(() => {});
      }
    }
    return socketAddress(`/ws/lobby${query}`);
  }

  dispatch(data) {
    if (typeof data.now === "number") this.offset = data.now - Date.now() / 1000;
    if (data.type === "balance") {
      setBalance(data.balance_cents);
    } else if (data.type === "lobby") {
      this.tables = new Map(data.tables.map((table) => [table.id, table]));
      this.live();
      this.onChange(this.tables, null);
    } else if (data.type === "lobby-changes") {
      const changed = new Set();
      for (const table of data.tables) {
        const before = this.tables.get(table.id);
        const recent = merged(before ? before.recent : [], table.rounds || []);
        const { rounds, ...rest } = table;
        this.tables.set(table.id, { ...rest, recent });
        changed.add(table.id);
      }
      for (const id of data.closed || []) {
        this.tables.delete(id);
        changed.add(id);
      }
      this.onChange(this.tables, changed);
    }
  }
}

/** The rounds kept, with the new ones after them (each once, by nonce), the last few. */
export function merged(recent, added) {
  const last = recent.length ? recent[recent.length - 1].nonce : -Infinity;
  return [...recent, ...added.filter((row) => row.nonce > last)].slice(-RECENT_KEPT);
}
