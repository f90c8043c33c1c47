// What Undo, Double and Rebet would place or take back, checked before any request
// against the round's limits, its bet step, the cap on bets and the player's balance.
// Each plan is all or nothing: either the bets to send, or a refusal in plain words,
// money as money ("Double needs 200.00; your balance is 150.00"). Pure: no page, no
// request; the table page sends what a plan says, one bet (one Idempotency-Key) at a time.

import { money } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The limits a plan is checked against, from the round's opening (its own limits,
 * whatever the table's are now): `{min, max, step, cap}` in cents; cap is the most bets
 * one player places in the round (null: none).
 */
export function limitsOf(opened) {
  return {
    min: opened.min_bet_cents,
    max: opened.max_bet_cents,
    step: opened.bet_step_cents || 1,
    cap: Number.isInteger(opened.max_bets_per_player) ? opened.max_bets_per_player : null,
  };
}

/** Every spot's total of `bets` (bet-placed events or {spot, amount_cents}), in order of first bet. */
export function totalsOf(bets) {
  const totals = new Map();
  for (const bet of bets) totals.set(bet.spot, (totals.get(bet.spot) || 0) + bet.amount_cents);
  return totals;
}

/** The player's bets merged per spot, in the order first bet: [{spot, amount_cents}]. */
export function mergedBets(bets) {
  return [...totalsOf(bets)].filter(([, cents]) => cents > 0).map(([spot, cents]) => ({ spot, amount_cents: cents }));
}

const named = (name, spot) => (name ? name(spot) : spot);

/**
 * Undo: the last chip this player placed this round (their newest bet still on it).
 * `mine`: their bets on the round, oldest first. Returns {betId, spot, amount_cents} or {refusal}.
 */
export function planUndo(mine, limits, name = null) {
  if (!mine.length) return { refusal: t("table.plan.undo_none") };
  const last = mine[mine.length - 1];
  const left = (totalsOf(mine).get(last.spot) || 0) - last.amount_cents;
  if (left > 0 && left < limits.min) {
    return { refusal: t("table.plan.undo_under", { left: money(left), spot: named(name, last.spot), min: money(limits.min) }) };
  }
  return { betId: last.bet_id, spot: last.spot, amount_cents: last.amount_cents };
}

/**
 * Bets placed all together: each spot's new total within the limits and on the step, no
 * more bets than the cap, and their sum within the balance (null: not known, the casino
 * checks). `existing`: the player's totals on the round now (a Map); `placed`: how many
 * bets they have placed this round, taken back or not. `what` names the action.
 */
function checked(action, bets, existing, placed, limits, balance, name) {
  const says = (key, figures) => t(`table.plan.${action}.${key}`, figures);
  for (const { spot, amount_cents: cents } of bets) {
    const total = (existing.get(spot) || 0) + cents;
    if (total > limits.max) {
      return { refusal: says("over", { total: money(total), spot: named(name, spot), max: money(limits.max) }) };
    }
    if (total < limits.min) {
      return { refusal: says("under", { total: money(total), spot: named(name, spot), min: money(limits.min) }) };
    }
    if (cents % limits.step !== 0) {
      return { refusal: says("step", { amount: money(cents), spot: named(name, spot), step: money(limits.step) }) };
    }
  }
  if (limits.cap !== null && placed + bets.length > limits.cap) {
    const room = Math.max(0, limits.cap - placed);
    return { refusal: says("cap", { n: bets.length, room, cap: limits.cap }) };
  }
  const total = bets.reduce((sum, bet) => sum + bet.amount_cents, 0);
  if (typeof balance === "number" && total > balance) {
    return { refusal: says("balance", { total: money(total), balance: money(balance) }) };
  }
  return { bets, total };
}

/** Double: every bet of the round again, so each spot's total is twice what it is. */
export function planDouble(mine, limits, balance, placed, name = null) {
  const bets = mergedBets(mine);
  if (!bets.length) return { refusal: t("table.plan.double_none") };
  return checked("double", bets, totalsOf(mine), placed, limits, balance, name);
}

/** Rebet: the last round's bets (one per spot) again, on a round the player has not bet on yet. */
export function planRebet(last, mine, limits, balance, placed, spots, name = null) {
  if (!last.length) return { refusal: t("table.plan.rebet_none") };
  if (mine.length) return { refusal: t("table.plan.rebet_not_empty") };
  const unknown = last.find((bet) => !spots.includes(bet.spot));
  if (unknown) return { refusal: t("table.plan.rebet_unknown", { spot: named(name, unknown.spot) }) };
  return checked("rebet", mergedBets(last), new Map(), placed, limits, balance, name);
}

/** The player's payouts of a round merged per spot: two chips on Banker make one line. */
export function mergedPayouts(payouts) {
  const bySpot = new Map();
  for (const p of payouts) {
    const seen = bySpot.get(p.spot);
    if (!seen) {
      bySpot.set(p.spot, { ...p, chips: 1 });
    } else {
      seen.stake += p.stake;
      seen.returned += p.returned;
      seen.won += p.won;
      seen.commission += p.commission;
      seen.chips += 1;
    }
  }
  return [...bySpot.values()];
}

/**
 * What stands of a plan placed in part: bets the casino took before it refused one, that
 * could not be taken back (betting closed between). `stood`: [{spot, amount_cents}].
 * "Banker 25.00 stands on this round: it could not be taken back"; "" for none.
 */
export function standingText(stood, name = null) {
  if (!stood.length) return "";
  const list = stood.map((bet) => t("table.spot_amount", { spot: named(name, bet.spot), amount: money(bet.amount_cents) })).join(t("games.list_separator"));
  return t(stood.length > 1 ? "table.plan.stand_many" : "table.plan.stand_one", { list });
}
