// The table page's honest states: a round voided, or refunded after the casino
// restarted, said at the table with what came back; a table that does not exist or has
// closed; and a signed-out visitor, who watches and is offered a sign-in to play.

import { announce } from "./announce.js";
import { get } from "./api.js";
import { h, money } from "./dom.js";
import { t } from "./i18n.js";
import { showGone, tableGoneView } from "./notfound.js";
import { RoundState } from "./round.js";

/** What a voided round gave back to `me`, in cents (0 for no bet, or for a watcher). */
export function refunded(round, me) {
  if (!round || !round.voided || !me) return 0;
  return round.payoutsOf(me).reduce((sum, p) => sum + p.returned, 0);
}

/** The words a void is announced with: "Round voided — your 25.00 is refunded". */
export function refundText(round, me) {
  if (!round || !round.voided) return "";
  const back = refunded(round, me);
  if (back > 0) return t("table.void.refunded", { amount: money(back) });
  return me ? t("table.void.no_bet") : t("table.void.every_bet");
}

/** The line under a voided round's result (what came back to `me`), or null. */
export function refundLine(round, me) {
  if (!round || !round.voided || !me) return null;
  const back = refunded(round, me);
  return h("p", { class: "refund", "data-refunded": String(back) },
    back > 0 ? t("table.void.refund_line", { amount: money(back) }) : t("table.no_bet_round"));
}

const told = new Set();

/** Say a void once (per round and page) through the page's one live region; the result
 * area shows it too (refundLine). */
export function announceVoid(round, me) {
  if (!round || !round.voided || told.has(round.id)) return;
  told.add(round.id);
  announce(t("table.void.said", { text: refundText(round, me) }), { keep: true });
}

/**
 * The round the page was showing when its socket dropped, as it ended while the page was
 * away (voided and refunded on a restart, or played out): read again, or null if it is
 * not over yet or cannot be read (a watcher may not read rounds by id).
 */
export async function missedRound(round, me) {
  if (!me || !round || round.over) return null;
  try {
    const past = new RoundState(await get(`/api/rounds/${round.id}`));
    return past.over ? past : null;
  } catch {
    return null; // the result area keeps what it had
  }
}

/** Instead of the chips and the buttons, for a visitor signed out: they may watch, and sign in to play. */
export function watcherControls(tableId) {
  const next = encodeURIComponent(`/tables/${tableId}`);
  return h("div", { class: ["controls", "watcher-controls"] },
    h("p", { class: "quiet" }, t("table.watching")),
    h("a", { class: ["button", "primary", "sign-in-to-play"], href: `/sign-in?next=${next}`, "data-link": true }, t("table.sign_in_to_play")));
}

/** The table's page replaced by what it is: no such table ("missing"), or closed. */
export function showTableGone(main, tableId, why) {
  showGone(main, tableGoneView(tableId, why));
}
