// Casino chips: a table's rack, and the stack a bet makes on its spot.
//
// A chip's colour says its value, the same at every table, as on a casino floor. The
// colours are the scheme most US casinos share (Nevada's and New Jersey's floors):
//   1 white · 2.50 pink · 5 red · 10 blue · 20 grey · 25 green · 100 black ·
//   500 purple · 1,000 yellow · 5,000 brown
// and, above those, 10,000 in sky blue (casinos differ there). An amount with no chip
// of its own (a table's unusual minimum, cents left over) is a plain slate chip that
// shows its value. The colours themselves are in casino.css, one class per value.

import { h, money } from "./dom.js";
import { t } from "./i18n.js";

/** The values a chip has a colour for, in cents. */
export const COLOURED = [100, 250, 500, 1000, 2000, 2500, 10000, 50000, 100000, 500000, 1000000];

/** The usual rack, in cents: what a table offers from its minimum up to its maximum. */
const RACK = [100, 500, 2500, 10000, 50000, 100000, 500000, 1000000];

/** What a bet on a spot is made of, largest first: each divides the next, so the greedy
 * choice is the fewest chips. */
const STACK = [1000000, 500000, 100000, 50000, 10000, 2500, 500, 100];

/** Chips drawn on a spot at most: the largest of the stack (the amount is written on it). */
const SHOWN = 5;

/** The chips a table offers: its minimum, then the usual denominations up to its maximum
 * that are multiples of its bet step (every stake is). */
export function chipsFor(min, max, step = 1) {
  const chips = [min, ...RACK.filter((c) => c > min && c <= max && c % step === 0)];
  return chips.slice(0, 6);
}

/** ", in steps of 0.20" for a table whose stakes are multiples of 0.20; nothing for a cent. */
export function stepText(table) {
  const step = table.bet_step_cents || 1;
  return step > 1 ? t("table.in_steps", { step: money(step) }) : "";
}

/** A table's limits a spot as a sentence: "Limits 1.00 – 500.00 a spot, in steps of 0.20." */
export function limitsText(table) {
  const figures = { min: money(table.min_bet_cents), max: money(table.max_bet_cents), step: money(table.bet_step_cents || 1) };
  return (table.bet_step_cents || 1) > 1 ? t("table.limits_step", figures) : t("table.limits", figures);
}

/** The class that colours a chip of `cents`: "chip-v2500" for 25.00, "chip-odd" without a colour. */
export function chipClass(cents) {
  return COLOURED.includes(cents) ? `chip-v${cents}` : "chip-odd";
}

/** Short chip labels: 1, 2.50, 25, 1K. */
export function chipLabel(cents) {
  const units = cents / 100;
  if (units >= 1000 && units % 1000 === 0) return `${units / 1000}K`;
  if (Number.isInteger(units)) return String(units);
  return units.toFixed(2);
}

/** The chips that make up `cents`, largest first: 130.00 is 100, 25, 5. Cents under a
 * whole unit are one odd chip. */
export function breakdown(cents) {
  const chips = [];
  let left = cents;
  for (const value of STACK) {
    while (left >= value) {
      chips.push(value);
      left -= value;
    }
  }
  if (left > 0) chips.push(left);
  return chips;
}

/** A bet's stack on its spot: its largest chips, the largest at the bottom, and the
 * amount written on the top one. */
export function chipStack(cents) {
  const chips = breakdown(cents).slice(0, SHOWN);
  const discs = chips.map((value) => h("span", { class: ["stack-disc", chipClass(value)], "data-cents": value }));
  return h("span", { class: ["chip-stack", `stack-${chips.length}`], "data-cents": cents },
    discs, h("span", { class: "stack-label" }, chipLabel(cents)));
}

/**
 * Offer only the chips the balance covers: a chip worth more is disabled (and says so),
 * and comes back when the balance allows. If the chip in hand is no longer covered, the
 * largest that is takes its place. `rack` is the table's fieldset of chip radios; returns
 * the chip in hand, in cents. An unknown balance (not yet loaded) disables nothing.
 */
export function limitChips(rack, balance, inHand) {
  const known = typeof balance === "number";
  let chosen = inHand;
  let largest = null;
  for (const input of rack.querySelectorAll("input[type=radio]")) {
    const cents = Number(input.value);
    const over = known && cents > balance;
    input.disabled = over;
    input.closest(".chip").classList.toggle("over-balance", over);
    input.closest(".chip").title = over ? t("table.chip_over_balance", { balance: money(balance) }) : "";
    if (!over && (largest === null || cents > largest)) largest = cents;
  }
  if (known && inHand > balance && largest !== null) {
    chosen = largest;
    const input = rack.querySelector(`input[value="${largest}"]`);
    if (input) input.checked = true;
  }
  return chosen;
}
