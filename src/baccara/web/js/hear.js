// What a screen reader hears of a round as it is played, through the page's one polite
// live region (announce.js): each card, tile or die as it is turned ("Player's card 1:
// 7 of Hearts"), the result as the result panel heads it ("Banker wins, 6 to 3"), and
// what the round did to the listener's bets ("You won 9.50"). Only what the page shows
// is said: a face-down card is no event here, and a peeked hand is the peeker's own.
// Each text is a sentence of its own, since the live region reads several said at once
// one after another (both RedGreen hands turn together).

import { mergedPayouts } from "./betplan.js";
import { cardName } from "./cards.js";
import { money } from "./dom.js";
import { t } from "./i18n.js";
import { handName, headline, pieceOf } from "./layouts.js";

/** The words for one piece turned up at `position` ("player.0", "seat3.1", "dice.2"). */
function turned(game, position, item) {
  const [hand, index] = position.split(".");
  const n = Number(index) + 1;
  if (hand === "dice") return t("a11y.die_rolled", { n, value: String(item) });
  if (pieceOf(game) === "tile") return t("a11y.tile_turned", { hand: handName(game, hand), n, tile: String(item) });
  return t("a11y.card_turned", { hand: handName(game, hand), n, card: cardName(item) });
}

/** What the listener's bets came to: won, lost, or handed back, in money. */
function outcome(round, you) {
  const mine = mergedPayouts(round.payoutsOf(you));
  if (!mine.length) return "";
  const staked = mine.reduce((sum, p) => sum + p.stake, 0);
  const returned = mine.reduce((sum, p) => sum + p.returned, 0);
  if (returned > staked) return t("a11y.you_won", { amount: money(returned - staked) });
  if (returned < staked) return t("a11y.you_lost", { amount: money(staked - returned) });
  return t("a11y.you_even", { amount: money(staked) });
}

/**
 * The words `event` gives a listener once `round` has applied it, "" for none: a card
 * turned face up, the round settled. `you` is the listener, `seat` their seat (Lo-Ball's
 * headline reads their own hand).
 */
export function heard(round, event, you, seat) {
  if (!round) return "";
  if ((event.kind === "card-dealt" && event.face_up && event.item !== null) || event.kind === "card-exposed") {
    return turned(round.game, event.position, event.item);
  }
  if (event.kind === "round-settled") return [t("a11y.result", { headline: headline(round, you, seat) }), you ? outcome(round, you) : ""].filter(Boolean).join(" ");
  return "";
}
