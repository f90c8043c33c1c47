// The casino's words in the player's language (i18n.js): numbers as the locale writes
// them, counts with the catalog's plural ("1 point", "2 points"; "2 点"), bet spots by
// their names on the felt, a bet's result as a player reads it, and the server's
// refusals worded here from their code and figures (`params`, amounts in integer cents)
// rather than read back out of its English.

import { money } from "./dom.js";
import { has, locale, t } from "./i18n.js";
import { betName, factsOf } from "./layouts.js";

const formats = new Map();

/** The locale's Intl.NumberFormat for whole numbers and for up to two decimals. */
function formatter(decimals) {
  const key = `${locale()}|${decimals}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(locale(), { minimumFractionDigits: 0, maximumFractionDigits: decimals }));
  return formats.get(key);
}

/** A whole number as a person reads it: 1234567 → "1,234,567". */
export function number(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "—";
  return formatter(Number.isInteger(Number(n)) ? 0 : 2).format(Number(n));
}

/** A count by its catalog entry, plural as the language has it: count("words.bets", 1) → "1 bet". */
export function count(key, n) {
  return t(key, { n: Number(n) });
}

/** Lo-Ball points: "0 points", "1 point", "12 points". */
export function points(n) {
  return count("words.points", n);
}

/** A bet spot by the name printed on the felt: "banker-pair" → "Banker Pair". */
export function spotName(game, spot) {
  return betName(game, String(spot));
}

/** A bet's result in the player's words; a bet on a voided round was refunded, not pushed. */
export function resultWord(result, voided = false) {
  if (voided) return t("words.refunded");
  const key = { win: "words.won", lose: "words.lost", push: "words.push" }[result];
  return key ? t(key) : result ? String(result) : t("words.open");
}

/** A Lo-Ball main wager's outcome in words: "win-bonus" → "won with the Win-bonus". */
export function mainWord(outcome) {
  return has(`words.main.${outcome}`) ? t(`words.main.${outcome}`) : String(outcome);
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
  return has(`words.category.${category}`) ? t(`words.category.${category}`) : String(category).replace(/_/g, " ");
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
  return pays ? t("words.bonus_pays", { category: categoryName(result.bonus_category) }) : "";
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
      // figures this page cannot read: the code's words stand
    }
  }
  // The server words its refusals in English, precisely ("there is no peek now"); in
  // another language the page says what the code means, from the catalog.
  const detail = error && (error.detail || error.message);
  if (locale() === "en" && detail) return detail;
  const code = error && (error.code || error.error);
  if (code && has(`errors.${code}`)) return t(`errors.${code}`);
  return detail || t("words.refused_default");
}

const cents = (value) => {
  if (!Number.isSafeInteger(value)) throw new Error("not an amount");
  return money(value);
};

const limits = (p, game) => t("errors.worded.over_limit", { spot: spotName(game, p.spot), total: cents(p.total_cents), min: cents(p.min_cents), max: cents(p.max_cents) });

const WORDED = {
  over_limit: limits,
  under_limit: limits,
  under_minimum: (p, game) => t("errors.worded.under_minimum", { left: cents(p.left_cents), spot: spotName(game, p.spot), min: cents(p.min_cents) }),
  bet_step: (p) => {
    const nearest = [p.lower_cents, p.higher_cents].filter((c) => c !== null && c !== undefined).map(cents);
    const figures = { amount: cents(p.amount_cents), step: cents(p.step_cents) };
    if (!nearest.length) return t("errors.worded.bet_step", figures);
    const either = nearest.length === 2 ? t("words.list_or", { first: nearest[0], last: nearest[1] }) : nearest[0];
    return t("errors.worded.bet_step_nearest", { ...figures, nearest: either });
  },
  too_many_bets: (p) => {
    if (!Number.isSafeInteger(p.cap)) throw new Error("not a count");
    return t("errors.worded.too_many_bets", { n: p.cap });
  },
  insufficient_funds: (p) => t("errors.worded.insufficient_funds", { balance: cents(p.balance_cents), needed: cents(p.needed_cents) }),
  loss_limit: (p) => t("errors.worded.loss_limit", { period: has(`errors.period.${p.period}`) ? t(`errors.period.${p.period}`) : String(p.period), limit: cents(p.limit_cents), room: cents(p.room_cents) }),
};
