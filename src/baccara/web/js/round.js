// One round as this browser may see it, rebuilt from its event log exactly as the
// server's engine builds it: the server sends the log (each viewer's own view), and
// the page is drawn from what the log says.

export class RoundState {
  /** `data` is a round as GET /api/rounds/{id} (or a snapshot) gives it. */
  constructor(data) {
    this.id = data.id;
    this.game = data.game;
    this.nonce = data.nonce;
    this.mode = data.mode;
    this.serverSeedHash = data.server_seed_hash;
    this.events = [];
    this.opened = null;
    this.bets = new Map(); // bet_id → bet-placed event
    this.firstBetAt = null;
    this.windowUntil = null; // when the betting timer runs out; null: waiting for a player
    this.ready = new Set();
    this.closed = null;
    this.slots = new Map(); // position → {item, faceUp}
    this.peek = null;
    this.peeked = null;
    this.peekEnded = null;
    this.squeeze = null; // the squeeze in play or the last one: squeeze-offered
    this.squeezeEnded = null; // its squeeze-ended, once it is over
    this.choice = null;
    this.chosen = null;
    this.handsSet = {};
    this.settled = null;
    this.voided = null;
    this.fresh = new Set(); // positions turned up by the last apply()
    this.applyAll(data.events || []);
    this.fresh.clear();
  }

  /** Apply events in order; returns false when one is missing (the caller resyncs). */
  applyAll(events) {
    this.fresh = new Set();
    for (const event of events) {
      if (event.seq < this.events.length) continue; // already have it
      if (event.seq > this.events.length) return false;
      this.apply(event);
    }
    return true;
  }

  apply(event) {
    this.events.push(event);
    switch (event.kind) {
      case "round-opened":
        this.opened = event;
        break;
      case "betting-window":
        this.windowUntil = event.until;
        break;
      case "bet-placed":
        this.bets.set(event.bet_id, event);
        if (this.firstBetAt === null) this.firstBetAt = event.at;
        if (this.windowUntil === null) this.windowUntil = event.at + this.opened.betting_seconds; // a round waiting for a player
        break;
      case "bet-removed": {
        const gone = this.bets.get(event.bet_id);
        this.bets.delete(event.bet_id);
        if (gone && ![...this.bets.values()].some((bet) => bet.player === gone.player)) {
          this.ready.delete(gone.player); // their last bet back: their "deal" goes with it
        }
        if (this.bets.size === 0) this.firstBetAt = null;
        break;
      }
      case "deal-requested":
        this.ready.add(event.player);
        break;
      case "betting-closed":
        this.closed = event;
        break;
      case "card-dealt":
        this.slots.set(event.position, { item: event.item, faceUp: event.face_up && event.item !== null });
        if (event.face_up && event.item !== null) this.fresh.add(event.position);
        break;
      case "peek-offered":
        this.peek = event;
        break;
      case "peeked":
        this.peeked = event;
        break;
      case "peek-ended":
        this.peekEnded = event;
        break;
      case "squeeze-offered":
        this.squeeze = event;
        this.squeezeEnded = null;
        break;
      case "squeeze-ended":
        this.squeezeEnded = event;
        break;
      case "choice-offered":
        this.choice = event;
        break;
      case "hand-chosen":
        this.chosen = event;
        break;
      case "card-exposed":
        this.slots.set(event.position, { item: event.item, faceUp: true });
        this.fresh.add(event.position);
        break;
      case "hand-set":
        this.handsSet[event.hand] = event;
        break;
      case "round-settled":
        this.settled = event;
        break;
      case "round-voided":
        this.voided = event;
        break;
      default:
        break;
    }
  }

  get phase() {
    if (this.voided) return "voided";
    if (this.settled) return "settled";
    if (!this.closed) return "betting";
    if (this.peek && !this.peekEnded) return "peek";
    if (this.squeeze && !this.squeezeEnded) return "squeeze";
    if (this.choice && !this.chosen) return "choosing";
    return this.exposing() ? "revealing" : "dealing";
  }

  exposing() {
    return this.events.some((event) => event.kind === "card-exposed");
  }

  get over() {
    return Boolean(this.settled || this.voided);
  }

  /** Seconds since the epoch (server clock) when the phase's timer runs out, or null. */
  deadline() {
    const phase = this.phase;
    if (phase === "betting") {
      if (this.windowUntil === null) return null; // the countdown runs from the moment betting opens
      const timer = this.windowUntil;
      if (!this.seatedBettorsReady() || this.firstBetAt === null) return timer;
      return Math.min(timer, this.firstBetAt + (this.opened.min_betting_seconds || 0));
    }
    if (phase === "peek") return this.peek.until;
    if (phase === "squeeze") return this.squeeze.until;
    if (phase === "choosing") return this.choice.until;
    return null;
  }

  /** Whether every seated bettor has asked to deal: betting then closes at the end of the
   * round's minimum window, if everyone else at the table has not closed it already. */
  seatedBettorsReady() {
    const seated = new Set([...this.bets.values()].filter((bet) => bet.seat !== null).map((bet) => bet.player));
    return seated.size > 0 && [...seated].every((player) => this.ready.has(player));
  }

  /** Codes at `hand.0`, `hand.1`, … in order; null for a card still face down. */
  hand(prefix) {
    const out = [];
    for (let i = 0; this.slots.has(`${prefix}.${i}`); i += 1) {
      const slot = this.slots.get(`${prefix}.${i}`);
      out.push({ position: `${prefix}.${i}`, item: slot.item, faceUp: slot.faceUp });
    }
    return out;
  }

  /** The hands of the layout: "player", "banker", "seat3", "dice"… in dealing order. */
  handNames() {
    const names = [];
    for (const position of this.slots.keys()) {
      const name = position.split(".")[0];
      if (!names.includes(name)) names.push(name);
    }
    return names;
  }

  betsOf(username) {
    return [...this.bets.values()].filter((bet) => bet.player === username);
  }

  /** Total staked on each spot, by `username` or by everyone. */
  totals(username = null) {
    const totals = {};
    for (const bet of this.bets.values()) {
      if (username !== null && bet.player !== username) continue;
      totals[bet.spot] = (totals[bet.spot] || 0) + bet.amount_cents;
    }
    return totals;
  }

  payoutsOf(username) {
    const ended = this.settled || this.voided;
    return ended ? ended.payouts.filter((payout) => payout.player === username) : [];
  }

  /** Seats that bet this round, as the deal sees them (Lo-Ball deals a hand to each). */
  seatsBetting() {
    return [...new Set([...this.bets.values()].map((bet) => bet.seat).filter((seat) => seat))].sort((a, b) => a - b);
  }
}
