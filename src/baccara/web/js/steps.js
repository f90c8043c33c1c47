// A round's log in words: the steps of the game as the player saw them.

import { cardName } from "./cards.js";
import { money } from "./dom.js";
import { has, t } from "./i18n.js";
import { betName, callText, handName, houseRule, pieceOf, voidReason } from "./layouts.js";

export function positionLabel(game, position) {
  const [hand, index] = position.split(".");
  const n = Number(index) + 1;
  if (hand === "dice") return t("games.position.die", { n });
  return t(`games.position.${pieceOf(game) === "tile" ? "tile" : "card"}`, { hand: handName(game, hand), n });
}

export function itemLabel(game, position, item) {
  if (item === null || item === undefined) return t("games.step.face_down");
  if (position.startsWith("dice.")) return item;
  if (pieceOf(game) !== "card") return item;
  return cardName(item);
}

export function describe(game, event) {
  switch (event.kind) {
    case "round-opened":
      return event.server_seed_hash
        ? t("games.step.opened", { nonce: event.nonce, hash: event.server_seed_hash.slice(0, 16) })
        : t("games.step.opened_live", { nonce: event.nonce });
    case "bet-placed":
      return t(event.seat ? "games.step.bet_seat" : "games.step.bet", { player: event.player, amount: money(event.amount_cents), spot: betName(game, event.spot), seat: event.seat });
    case "betting-window":
      return event.until === null ? t("games.step.waiting") : t("games.step.window");
    case "bet-removed":
      return t("games.step.removed", { player: event.player });
    case "deal-requested":
      return t("games.step.deal", { player: event.player });
    case "betting-closed": {
      const why = has(`games.step.closed_by.${event.reason}`) ? t(`games.step.closed_by.${event.reason}`) : String(event.reason);
      if (event.client_seed) return t("games.step.closed_cut", { why, player: event.highest_bettor, seed: event.client_seed });
      if (event.highest_bettor) return t("games.step.closed_highest", { why, player: event.highest_bettor });
      return t("games.step.closed", { why });
    }
    case "card-dealt":
      if (!event.face_up) return t("games.step.dealt_down", { position: positionLabel(game, event.position) });
      return event.item ? t("games.step.dealt_up_item", { position: positionLabel(game, event.position), item: itemLabel(game, event.position, event.item) })
        : t("games.step.dealt_up", { position: positionLabel(game, event.position) });
    case "peek-offered":
      return t("games.step.peek_offered", { player: event.player, hand: handName(game, event.hand) });
    case "peeked":
      return event.cards ? t("games.step.peeked_cards", { player: event.player, hand: handName(game, event.hand), cards: event.cards.map(cardName).join(t("games.list_separator")) })
        : t("games.step.peeked", { player: event.player, hand: handName(game, event.hand) });
    case "peek-ended":
      return event.reason === "done" ? t("games.step.peek_done") : t("games.step.peek_timer");
    case "choice-offered":
      return t("games.step.choice", { player: event.player });
    case "hand-chosen":
      return has(`games.step.chosen.${event.reason}`) ? t(`games.step.chosen.${event.reason}`, { hand: handName(game, event.hand) }) : t("games.step.chosen", { hand: handName(game, event.hand) });
    case "card-exposed":
      return t("games.step.exposed", { position: positionLabel(game, event.position), item: itemLabel(game, event.position, event.item) });
    case "hand-set":
      return t("games.step.set", { hand: handName(game, event.hand), front: cardName(event.front), back: event.back.map(cardName).join(t("games.list_separator")), rule: houseRule(event.rule) });
    case "round-settled":
      return t("games.step.settled", { call: callText(game, event.result) });
    case "round-voided":
      return t("games.step.voided", { reason: voidReason(event.reason) });
    default:
      return event.kind;
  }
}
