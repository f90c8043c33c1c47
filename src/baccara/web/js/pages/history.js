// Last-game recall: the player's last ten rounds — steps, wagers, wins, balances — each
// with its provably-fair data and a Verify action that re-deals it here, in the browser,
// and settles it again from those cards to check the call and every payout (a live
// round, which has no seeds, is settled again from the cards its dealer entered).
// And the player's client seed, to see and to change.

import { games, get, put, randomHex } from "../api.js";
import { itemSvg } from "../cards.js";
import { h, money, replace, signed, toast, when } from "../dom.js";
import { failureText } from "../failure.js";
import { session } from "../session.js";
import { verifyRound } from "../fair.js";
import { has, t } from "../i18n.js";
import { betName, callText, factsOf, gameName, handName, pieceOf } from "../layouts.js";
import { describe, itemLabel, positionLabel } from "../steps.js";
import { count, resultWord } from "../words.js";

/** What the fair check found, in words: fair.js says it as a key and its figures. */
function said(reason) {
  if (!reason) return "";
  if (typeof reason === "string") return reason;
  return t(`history.fair.${reason.key}`, reason.params || {});
}

/** The codes a hand was dealt, in order, as the log shows them (for the call's words). */
function dealtCodes(round) {
  return (hand) => {
    const at = new Map();
    for (const e of round.events) {
      if ((e.kind === "card-dealt" || e.kind === "card-exposed") && e.item && e.position.split(".")[0] === hand) at.set(e.position, e.item);
    }
    return [...at.values()];
  };
}

function finalCards(round) {
  const items = new Map();
  for (const event of round.events) {
    if (event.kind === "card-dealt" || event.kind === "card-exposed") {
      if (event.item) items.set(event.position, event.item);
      else if (!items.has(event.position)) items.set(event.position, null);
    }
  }
  const hands = new Map();
  for (const [position, item] of items) {
    const hand = position.split(".")[0];
    if (!hands.has(hand)) hands.set(hand, []);
    hands.get(hand).push([position, item]);
  }
  return h("div", { class: "recall-hands" }, [...hands].map(([hand, cards]) =>
    h("figure", { class: "recall-hand" },
      h("figcaption", {}, handName(round.game, hand)),
      h("div", { class: "cards" }, cards.map(([position, item]) => itemSvg(pieceOf(round.game), position, item, "small"))))));
}

const MONEY = new Set(["stake", "won", "returned", "commission", "amount_cents", "payout_cents", "house_net", "paid", "collected"]);
/** A field of the record in words ("paid by the ledger"); one the page does not know, as it is named. */
function fieldWord(group, field) {
  return has(`history.${group}.${field}`) ? t(`history.${group}.${field}`) : field.replace(/_/g, " ");
}

/** A field of the call in words: `sides.left.paid` → "the left-side dealer's payouts". */
function callField(field) {
  const side = /^sides\.(left|right)\.([a-z_]+)(.*)$/.exec(field);
  if (side) return t(`history.side.${side[1]}`, { what: fieldWord("side_field", side[2]), rest: side[3] });
  return has(`history.call_field.${field}`) ? t(`history.call_field.${field}`) : field.replace(/_/g, " ");
}

function shown(field, value) {
  if (value === undefined) return t("history.nothing");
  if (MONEY.has(field) && Number.isSafeInteger(value)) return money(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One difference in words: which bet (or the call), which field, the record's value and the rules'. */
function differenceText(game, d) {
  const field = d.field.replace(/^.*\./, "");
  const says = t("history.says", { recorded: shown(field, d.recorded), recomputed: shown(field, d.recomputed) });
  if (d.what === "call") return t("history.diff.call", { field: callField(d.field), says });
  if (d.what === "house") return t("history.diff.house", { says });
  const bet = d.bet.spot ? betName(game, d.bet.spot) : t("history.a_bet");
  const mine = d.bet.player === (session.user && session.user.username);
  const what = fieldWord("field", field);
  if (mine) return t("history.diff.yours", { bet, field: what, says });
  if (d.bet.player) return t("history.diff.theirs", { bet, player: d.bet.player, field: what, says });
  return t("history.diff.bet", { bet, field: what, says });
}

function settlementView(result, round) {
  const check = result.settlement;
  const good = (ok, text, ...more) => h("li", { class: ok ? "pass" : "fail" }, h("span", { "aria-hidden": "true" }, ok ? "✔ " : "✘ "), text, ...more);
  const bets = count("words.bets", check.bets);
  if (check.reason) return good(false, t("history.settle.unchecked", { reason: said(check.reason) }));
  if (check.ok) {
    return good(true, check.voided !== null && check.voided !== undefined
      ? t("history.settle.voided", { n: check.bets })
      : t("history.settle.matches", { bets }));
  }
  return good(false, t("history.settle.differs", { n: check.differences.length }),
    h("ul", { class: "differences" }, check.differences.map((d) => h("li", {}, differenceText(round.game, d)))));
}

function verifyView(result, round) {
  if (!result.checks.length && result.reason) return h("p", { class: "verify-note" }, said(result.reason));
  const good = (ok, text) => h("li", { class: ok ? "pass" : "fail" }, h("span", { "aria-hidden": "true" }, ok ? "✔ " : "✘ "), text);
  const mismatches = result.checks.filter((c) => !c.ok).length;
  const facts = factsOf(round.game);
  const piece = `${pieceOf(round.game) === "tile" ? "tile" : "card"}${facts && facts.dice ? "_die" : ""}`;
  const items = t(`history.items.${piece}`);
  const every = t(`history.every.${piece}`);
  const verdict = result.live ? t("history.verdict.live", { items }) : t("history.verdict.seeds", { every });
  return h("div", { class: ["verify-result", result.ok ? "verified" : "failed"], "data-verified": String(result.ok),
    "data-settled": String(result.settlement.ok) },
    h("p", { class: "verdict" }, result.ok ? verdict : !result.cardsOk
      ? t(result.live ? "history.verdict.not_rules" : "history.verdict.not_seeds", { items })
      : t("history.verdict.not_paid")),
    h("ul", { class: "checks" },
      ...(result.live
        ? [good(result.dealing === null, result.dealing === null
          ? t("history.check.by_hand", { n: result.checks.length })
          : t("history.check.not_rules", { items, problem: said(result.dealing) }))]
        : [good(result.hashOk, t("history.check.hash", { hash: `${result.hash.slice(0, 16)}…` })),
          good(result.complete, t("history.check.complete", { n: result.expected.length, logged: result.checks.length })),
          good(mismatches === 0, mismatches ? t("history.check.mismatches", { n: mismatches }) : t("history.check.each"))]),
      settlementView(result, round)),
    result.live ? null : h("details", {}, h("summary", {}, t("history.card_by_card")),
      h("table", { class: "verify-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.col.position")), h("th", { scope: "col" }, t("history.col.logged")), h("th", { scope: "col" }, t("history.col.dealt")), h("th", { scope: "col" }, ""))),
        h("tbody", {}, result.checks.map((c) => h("tr", { class: c.ok ? "pass" : "fail" },
          h("th", { scope: "row" }, positionLabel(round.game, c.position)),
          h("td", {}, itemLabel(round.game, c.position, c.logged)),
          h("td", {}, itemLabel(round.game, c.position, c.dealt)),
          h("td", {}, c.ok ? "✔" : "✘")))))));
}

function roundCard(round) {
  const staked = round.wagers.reduce((sum, w) => sum + w.amount_cents, 0);
  const paid = round.wagers.reduce((sum, w) => sum + (w.payout_cents || 0), 0);
  const over = round.state === "settled" || round.state === "voided";
  const verifyBox = h("div", { class: "verify-box", "aria-live": "polite" });
  const live = !round.server_seed_hash;
  const verifyButton = h("button", { type: "button", class: "primary", disabled: live ? !over : !round.server_seed,
    onClick: async () => {
      verifyButton.disabled = true;
      replace(verifyBox, h("p", {}, t(live ? "history.settling" : "history.redealing")));
      try {
        replace(verifyBox, verifyView(await verifyRound(round, await games()), round));
      } catch (error) {
        replace(verifyBox, h("p", { class: "fail" }, t("history.redeal_failed", { reason: error.message })));
      } finally {
        verifyButton.disabled = false;
      }
    } }, t("history.verify"));
  return h("article", { class: "recall", "data-round-id": round.round_id, "aria-labelledby": `recall-${round.round_id}` },
    h("header", {},
      h("h2", { id: `recall-${round.round_id}` }, t("history.round_title", { game: gameName(round.game), round: round.round_id })),
      h("p", { class: "quiet" }, t("history.round_facts", { table: round.table_id, nonce: round.nonce, at: when(round.opened_at), state: has(`history.state.${round.state}`) ? t(`history.state.${round.state}`) : round.state }))),
    h("div", { class: "recall-body" },
    h("div", { class: "recall-play" },
    round.result ? h("p", { class: "call" }, callText(round.game, round.result, dealtCodes(round))) : null,
    finalCards(round),
    h("table", { class: "payouts" },
      h("caption", {}, t("history.wagers")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.col.bet")), h("th", { scope: "col" }, t("history.col.stake")), h("th", { scope: "col" }, t("history.col.result")), h("th", { scope: "col" }, t("history.col.paid")))),
      h("tbody", {}, round.wagers.map((w) => h("tr", {},
        h("th", { scope: "row" }, betName(round.game, w.bet)), h("td", {}, money(w.amount_cents)),
        h("td", { "data-result": w.result || "open" }, resultWord(w.result, round.state === "voided")), h("td", {}, w.payout_cents === null ? "—" : money(w.payout_cents)))))),
    h("dl", { class: "facts compact balances" },
      h("div", {}, h("dt", {}, t("history.balance_before")), h("dd", { "data-cents": round.balance_before_cents }, money(round.balance_before_cents))),
      h("div", {}, h("dt", {}, t("history.balance_after")), h("dd", { "data-cents": round.balance_after_cents }, money(round.balance_after_cents))),
      h("div", {}, h("dt", {}, t("history.won_or_lost")), h("dd", {}, over ? signed(paid - staked) : t("history.in_play")))),
    h("details", { class: "steps" }, h("summary", {}, t("history.steps", { n: round.events.length })),
      h("ol", {}, round.events.map((event) => h("li", { "data-kind": event.kind }, describe(round.game, event)))))),
    h("section", { class: "fairness", "aria-labelledby": `fair-${round.round_id} recall-${round.round_id}` }, // one region per round, named by it
      h("h3", { id: `fair-${round.round_id}` }, t("history.fair_title")),
      round.server_seed_hash
        ? h("dl", { class: "facts seeds" },
          h("div", {}, h("dt", {}, t("history.server_seed_hash")), h("dd", { class: "hash" }, round.server_seed_hash)),
          h("div", {}, h("dt", {}, t("history.server_seed")), h("dd", { class: "hash" }, round.server_seed || t("history.seed_later"))),
          h("div", {}, h("dt", {}, t("history.client_seed")), h("dd", { class: "hash" }, round.client_seed || "—")),
          h("div", {}, h("dt", {}, t("history.nonce")), h("dd", {}, String(round.nonce))))
        : h("p", { class: "quiet" }, t("history.live_note")),
      verifyButton,
      verifyBox)));
}

function seedPanel() {
  const input = h("input", { id: "client-seed", name: "client-seed", maxlength: 64, spellcheck: "false", autocomplete: "off", "aria-describedby": "client-seed-hint" });
  const current = h("code", { id: "client-seed-current" }, "…");
  const save = async (value) => {
    try {
      const answer = await put("/api/me/client-seed", { client_seed: value });
      current.textContent = answer.client_seed;
      input.value = answer.client_seed;
      toast(t("history.seed.saved"));
    } catch (error) {
      toast(failureText(error), "error");
    }
  };
  get("/api/me/client-seed").then((answer) => {
    current.textContent = answer.client_seed || t("history.seed.none");
    input.value = answer.client_seed || "";
  }).catch(() => {});
  return h("section", { class: "panel seed-panel", "aria-labelledby": "seed-title" },
    h("h2", { id: "seed-title" }, t("history.seed.title")),
    h("p", {}, t("history.seed.about"), " ", t("history.seed.current"), " ", current),
    h("form", { class: "inline-form", onSubmit: (event) => { event.preventDefault(); if (input.value.trim()) save(input.value.trim()); } },
      h("label", { for: "client-seed" }, t("history.client_seed")), input,
      h("button", { type: "submit" }, t("history.seed.save")),
      h("button", { type: "button", onClick: () => save(randomHex(16)) }, t("history.seed.random"))),
    h("small", { id: "client-seed-hint" }, t("history.seed.hint")));
}

export function mount(main) {
  const list = h("div", { class: "recall-list", "aria-busy": "true" }, h("p", {}, t("history.loading")));
  replace(main, h("section", { class: "history-page" },
    h("h1", {}, t("history.title")),
    h("p", { class: "lead" }, t("history.lead")),
    seedPanel(),
    list));
  let stopped = false;
  get("/api/me/history?limit=10").then((rounds) => {
    if (stopped) return;
    list.removeAttribute("aria-busy");
    replace(list, rounds.length ? rounds.map(roundCard) : h("p", { class: "panel" }, t("history.none")));
  }).catch((error) => {
    if (!stopped) replace(list, h("p", { class: "panel fail" }, failureText(error)));
  });
  return () => {
    stopped = true;
  };
}
