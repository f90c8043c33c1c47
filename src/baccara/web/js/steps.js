// A round's log in words: the steps of the game as the player saw them.

import { cardName } from "./cards.js";
import { money, titleCase } from "./dom.js";
import { betName, pieceOf } from "./layouts.js";

export function positionLabel(game, position) {
  const [hand, index] = position.split(".");
  const n = Number(index) + 1;
  if (hand === "dice") return `Die ${n}`;
  const word = pieceOf(game);
  const seat = /^seat(\d+)$/.exec(hand);
  if (seat) return `Seat ${seat[1]} ${word} ${n}`;
  return `${titleCase(hand)} ${word} ${n}`;
}

export function itemLabel(game, position, item) {
  if (item === null || item === undefined) return "face down";
  if (position.startsWith("dice.")) return item;
  if (pieceOf(game) !== "card") return item;
  return cardName(item);
}

export function describe(game, event) {
  switch (event.kind) {
    case "round-opened":
      return event.server_seed_hash
        ? `Round ${event.nonce} opened; the server seed's SHA-256 was published: ${event.server_seed_hash.slice(0, 16)}…`
        : `Round ${event.nonce} opened at a live table`;
    case "bet-placed":
      return `${event.player} bet ${money(event.amount_cents)} on ${betName(game, event.spot)}${event.seat ? ` from seat ${event.seat}` : ""}`;
    case "betting-window":
      return event.until === null ? "Nobody is seated: the round waits for a player" : "Place your bets: the countdown started";
    case "bet-removed":
      return `${event.player} took a bet back`;
    case "deal-requested":
      return `${event.player} pressed Deal`;
    case "betting-closed": {
      const why = { timer: "the countdown ran out", "all-ready": "every seated bettor pressed Deal", dealer: "the dealer called it" }[event.reason] || event.reason;
      const cut = event.client_seed ? `; ${event.highest_bettor} cut with client seed “${event.client_seed}”` : event.highest_bettor ? `; highest bettor ${event.highest_bettor}` : "";
      return `No more bets: ${why}${cut}`;
    }
    case "card-dealt":
      return `${positionLabel(game, event.position)} dealt ${event.face_up ? "face up" : "face down"}${event.face_up && event.item ? `: ${itemLabel(game, event.position, event.item)}` : ""}`;
    case "peek-offered":
      return `${event.player} may look at ${titleCase(event.hand)}`;
    case "peeked":
      return `${event.player} looked at ${titleCase(event.hand)}${event.cards ? `: ${event.cards.map(cardName).join(", ")}` : ""}`;
    case "peek-ended":
      return event.reason === "done" ? "The cards were handed back" : "The peek's time ran out";
    case "choice-offered":
      return `${event.player} chooses which hand is set first`;
    case "hand-chosen":
      return `${titleCase(event.hand)} is set first${event.reason === "chosen" ? " (the highest bettor's choice)" : event.reason === "timer" ? " (no choice in time)" : ""}`;
    case "card-exposed":
      return `${positionLabel(game, event.position)} turned: ${itemLabel(game, event.position, event.item)}`;
    case "hand-set":
      return `${titleCase(event.hand)} set by the house way: ${cardName(event.front)} in front | ${event.back.map(cardName).join(", ")} behind (${event.rule})`;
    case "round-settled":
      return `Settled: ${event.result.call}`;
    case "round-voided":
      return `Voided: ${event.reason}; every bet refunded`;
    default:
      return event.kind;
  }
}
