// The casino's words: numbers with thousands separators, counts with the right plural
// ("1 point", "2 points"), bet spots by their names on the felt, a bet's result as a
// player reads it, and the server's refusals worded here from their code and figures
// (`params`, amounts in integer cents) rather than read back out of its English.

import { money } from "./dom.js";
import { betName, factsOf } from "./layouts.js";

const LOCALE = "en-US";
const numbers = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const decimals = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const plurals = new Intl.PluralRules(LOCALE);

/** A whole number as a person reads it: 1234567 → "1,234,567". */
export function number(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "—";
  return Number.isInteger(Number(n)) ? numbers.format(Number(n)) : decimals.format(Number(n));
}

/** A count with its noun, plural as the language has it: count(1, "point") → "1 point". */
export function count(n, one, other = `${one}s`) {
  return `${number(n)} ${plurals.select(Number(n)) === "one" ? one : other}`;
}

/** Lo-Ball points: "0 points", "1 point", "12 points". */
export function points(n) {
  return count(n, "point");
}

/** A bet spot by the name printed on the felt: "banker-pair" → "Banker Pair". */
export function spotName(game, spot) {
  return betName(game, String(spot));
}

/** A bet's result in the player's words; a bet on a voided round was refunded, not pushed. */
export function resultWord(result, voided = false) {
  if (voided) return "refunded";
  return { win: "won", lose: "lost", push: "push" }[result] || (result ? String(result) : "open");
}

/** A Lo-Ball main wager's outcome in words: "win-bonus" → "won with the Win-bonus". */
export function mainWord(outcome) {
  return { win: "won", "win-bonus": "won, Win-bonus", "play-bonus": "lost, Play-bonus paid", lose: "lost", push: "push" }[outcome] || String(outcome);
}

/**
 * A Punto Banco hand's score as the felt may show it: only once the hand's first two
 * cards are both face up (with the third, if it is turned), never from one card alone
 * — a lone 8 would read as a natural. `cards` are the hand's dealt positions in order,
 * each `{item}` with `item` null while face down; `score` scores the codes shown.
 */
export function shownScore(cards, score) {
  if (cards.length < 2 || !cards[0].item || !cards[1].item) return null;
  return score(cards.filter((c) => c.item).map((c) => c.item));
}

/** A poker category id in words: "three_of_a_kind" → "three of a kind". */
export function categoryName(category) {
  return String(category).replace(/_/g, " ");
}

/**
 * What a RedGreen headline says of the Bonus: the hand's category only when the Bonus
 * paid on it (a Bonus bet on the round won, or the casino's paytable pays it); a hand
 * the Bonus does not pay ("pair", beside a lost Bonus) is left unsaid.
 */
export function bonusNote(round) {
  const result = round && round.settled && round.settled.result;
  if (!result || !result.bonus_category) return "";
  const bonusBets = round.settled.payouts.filter((p) => p.spot === "bonus");
  let pays;
  if (bonusBets.length) pays = bonusBets.some((p) => p.won > 0);
  else {
    const facts = factsOf(round.game);
    const bet = facts && (facts.bets || []).find((b) => b.bet === "bonus");
    const outcome = bet && bet.outcomes.find((o) => o.name === result.bonus_category);
    pays = Boolean(outcome && outcome.pays > 0);
  }
  return pays ? ` · the Bonus pays: ${categoryName(result.bonus_category)}` : "";
}

/**
 * A refusal from the casino in words, a clause the page leads with what was refused
 * ("Bet refused: the total on Banker would be 501.00; …"). Worded from the answer's
 * code and params when it has them; otherwise the server's own words (its detail).
 */
export function refusal(error, game) {
  const p = (error && error.params) || null;
  const words = p ? WORDED[error.code] : null;
  if (words) {
    try {
      const text = words(p, game);
      if (text) return text;
    } catch {
      // figures this page cannot read: the server's words stand
    }
  }
  return (error && (error.detail || error.message)) || "the casino refused";
}

const cents = (value) => {
  if (!Number.isSafeInteger(value)) throw new Error("not an amount");
  return money(value);
};

const WORDED = {
  over_limit: (p, game) => `the total on ${spotName(game, p.spot)} would be ${cents(p.total_cents)}; this table takes ${cents(p.min_cents)} to ${cents(p.max_cents)} a spot`,
  under_limit: (p, game) => `the total on ${spotName(game, p.spot)} would be ${cents(p.total_cents)}; this table takes ${cents(p.min_cents)} to ${cents(p.max_cents)} a spot`,
  under_minimum: (p, game) => `that would leave ${cents(p.left_cents)} on ${spotName(game, p.spot)}, under the table minimum of ${cents(p.min_cents)}`,
  bet_step: (p) => {
    const nearest = [p.lower_cents, p.higher_cents].filter((c) => c !== null && c !== undefined).map(cents);
    return `a stake of ${cents(p.amount_cents)} is not a multiple of this table's bet step, ${cents(p.step_cents)}${nearest.length ? `: bet ${nearest.join(" or ")}` : ""}`;
  },
  too_many_bets: (p) => `at most ${count(p.cap, "bet")} a player in one round (a bet taken back counts): add to a spot with a larger stake instead`,
  insufficient_funds: (p) => `your balance is ${cents(p.balance_cents)}; ${cents(p.needed_cents)} is needed`,
  loss_limit: (p) => `your ${p.period} loss limit is ${cents(p.limit_cents)}: this bet could take you past it; ${cents(p.room_cents)} of room is left`,
};
