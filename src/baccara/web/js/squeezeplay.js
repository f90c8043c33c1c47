// The squeeze at a table page: which cards are being squeezed now and by whom (read from
// the round's log: RedGreen's peek, or a squeeze-offered until its squeeze-ended), the
// squeezer's cards that bend under their hands (their bends sent on the table's socket,
// ~15 a second), everyone else's backs that bend as those bends arrive, and the hand-over
// to the usual cards once the table exposes them — peeled on from where they were bent,
// so a card the timer turns does not jump.

import { ApiError, post } from "./api.js";
import { t } from "./i18n.js";
import { handName } from "./layouts.js";
import { squeezeCard, throttle } from "./squeeze.js";

const BENDS_A_SECOND = 15;

/**
 * The squeeze in play at `round`, as `me` sees it, or null: its kind ("peek": RedGreen's
 * highest bettor looks at the hand they backed; "squeeze": the cards are turned by the
 * squeezer), squeezer, hand, positions, deadline, and the faces when they are `me`'s to see
 * (`peekCards`: what GET /api/rounds/{id}/peek or a peeked event gave the peeker).
 */
export function squeezeNow(round, me, peekCards = null) {
  if (!round) return null;
  const faces = {};
  if (round.phase === "peek" && round.peek) {
    const { player, hand, until } = round.peek;
    const positions = round.hand(hand).map((c) => c.position);
    const mine = Boolean(me) && player === me;
    if (mine && peekCards && peekCards.hand === hand) positions.forEach((p, i) => { faces[p] = peekCards.cards[i] || null; });
    return { kind: "peek", player, hand, positions, until, mine, faces };
  }
  if (round.phase === "squeeze" && round.squeeze) {
    const { player, hand, positions, until } = round.squeeze;
    const mine = Boolean(me) && player === me;
    const peeked = round.peeked;
    if (mine && peeked && peeked.seq > round.squeeze.seq && peeked.player === me && peeked.cards) {
      positions.forEach((p, i) => { faces[p] = peeked.cards[i] || null; });
    }
    return { kind: "squeeze", player, hand, positions: [...positions], until, mine, faces };
  }
  return null;
}

/** What the phase line says of a squeeze (the countdown follows it). */
export function squeezeText(game, now) {
  if (!now) return t("squeeze.phase_unknown");
  const hand = handName(game, now.hand);
  return now.mine ? t("squeeze.phase_mine", { hand }) : t("squeeze.phase_other", { player: now.player, hand });
}

/**
 * A table page's squeezes. `send(text)` writes on the table's socket, `redraw()` draws the
 * page again, `failed(error)` shows a refusal, `faceShown` is the page's set of cards
 * already drawn face up (a card turned here is not flipped again when the log exposes it).
 */
export class TableSqueeze {
  constructor({ tableId, me, send, redraw, failed, faceShown }) {
    this.tableId = tableId;
    this.me = me;
    this.redraw = redraw;
    this.failed = failed;
    this.faceShown = faceShown;
    this.cards = new Map(); // `${round}:${position}` → squeezeCard
    this.roundId = null;
    this.now = null;
    this.muted = null; // the round whose bends the table refused: no more are sent for it
    this.bends = throttle((message) => send(JSON.stringify(message)), BENDS_A_SECOND);
  }

  /** The page is about to draw `round`: note the squeeze in play (see squeezeNow). */
  update(round, peekCards) {
    if (round && round.id !== this.roundId) {
      for (const card of this.cards.values()) card.stop();
      this.cards.clear();
      this.bends.cancel();
      this.roundId = round.id;
    }
    this.now = squeezeNow(round, this.me, peekCards);
    return this.now;
  }

  /**
   * The drawing of `position` while it is squeezed or being turned over, or null for the
   * usual one (layouts.js asks before drawing each card). `item` is its face once exposed.
   */
  cardFor(round, position, item, extraClass = "") {
    if (!round || round.id !== this.roundId) return null;
    const key = `${round.id}:${position}`;
    const slot = round.slots.get(position);
    const exposed = Boolean(slot && slot.faceUp && slot.item) || (this.now === null && Boolean(item));
    const face = exposed ? (slot && slot.item) || item : null;
    const now = this.now;
    const squeezed = now && now.positions.includes(position);
    let card = this.cards.get(key);
    if (!card) {
      if (!squeezed || exposed) return null;
      const code = now.mine ? now.faces[position] : null;
      if (now.mine && !code) return null; // the faces are on their way
      card = this.make(key, position, code, now, extraClass);
    }
    if (face) card.reveal(face); // peeled on from where it was bent, then drawn as usual
    else if (!squeezed) { // the peek is over and the cards lie face down again
      card.stop();
      this.cards.delete(key);
      return null;
    }
    return card.done && face ? null : card.element; // turned here: its face shows until the log exposes it
  }

  make(key, position, code, now, extraClass) {
    const kind = now.kind;
    const card = squeezeCard({
      code,
      extraClass: [extraClass, "squeezing"].filter(Boolean).join(" "),
      label: code ? undefined : t("squeeze.watching_label", { player: now.player }),
      onBend: (corner, lift) => {
        if (this.muted === this.roundId) return;
        this.bends.push({ type: "bend", position, corner, lift });
      },
      onTurn: () => {
        this.bends.cancel();
        if (kind === "squeeze") this.turn(position);
      },
      onDone: () => {
        this.faceShown.add(key);
        this.redraw();
      },
    });
    card.element.dataset.position = position;
    this.cards.set(key, card);
    return card;
  }

  async turn(position) {
    try {
      await post(`/api/tables/${this.tableId}/squeeze/turn`, { position });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) this.failed(error); // 409: the table turned it first
    }
  }

  /** Turn every card of the squeeze left (the squeezer's "Turn them all"). */
  async done() {
    this.bends.cancel();
    try {
      await post(`/api/tables/${this.tableId}/squeeze/done`);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) this.failed(error);
    }
  }

  /** The squeezer bent a card: this page's back of it bends the same way. */
  bent(message) {
    if (message.round_id !== this.roundId) return;
    const card = this.cards.get(`${message.round_id}:${message.position}`);
    if (card && !card.code) card.follow(message.corner, message.lift);
  }

  /** The table refused a bend (this page squeezes no more, or sent one it should not). */
  refused(message) {
    if (message.code === "not_squeezing") {
      this.muted = this.roundId;
      this.bends.cancel();
    }
  }

  stop() {
    this.bends.cancel();
    for (const card of this.cards.values()) card.stop();
    this.cards.clear();
  }
}
