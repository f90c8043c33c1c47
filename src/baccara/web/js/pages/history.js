// Last-game recall: the player's last ten rounds — steps, wagers, wins, balances — each
// with its provably-fair data and a Verify action that re-deals it here, in the browser,
// and settles it again from those cards to check the call and every payout (a live
// round, which has no seeds, is settled again from the cards its dealer entered).
// And the player's client seed, to see and to change.

import { ApiError, games, get, put, randomHex } from "../api.js";
import { itemSvg } from "../cards.js";
import { h, money, replace, signed, toast, when } from "../dom.js";
import { session } from "../session.js";
import { verifyRound } from "../fair.js";
import { betName, factsOf, gameName, pieceOf } from "../layouts.js";
import { describe, itemLabel, positionLabel } from "../steps.js";
import { count, resultWord } from "../words.js";

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
      h("figcaption", {}, hand.replace(/^seat/, "Seat ").replace(/^./, (c) => c.toUpperCase())),
      h("div", { class: "cards" }, cards.map(([position, item]) => itemSvg(pieceOf(round.game), position, item, "small"))))));
}

const MONEY = new Set(["stake", "won", "returned", "commission", "amount_cents", "payout_cents", "house_net", "paid", "collected"]);
const FIELDS = { payout_cents: "paid by the ledger", amount_cents: "stake in the ledger", bet: "bet in the ledger",
  house_net: "the house's net", returned: "returned" };
const CALL_FIELDS = { call: "in words", first_hand: "hand set first" };
const SIDE_FIELDS = { paid: "payouts", collected: "collections", commission: "commission", seats: "seats" };

/** A field of the call in words: `sides.left.paid` → "the left-side dealer's payouts". */
function callField(field) {
  const side = /^sides\.(left|right)\.([a-z_]+)(.*)$/.exec(field);
  if (side) return `the ${side[1]}-side dealer's ${SIDE_FIELDS[side[2]] || side[2].replace(/_/g, " ")}${side[3]}`;
  return CALL_FIELDS[field] || field.replace(/_/g, " ");
}

function shown(field, value) {
  if (value === undefined) return "nothing";
  if (MONEY.has(field) && Number.isSafeInteger(value)) return money(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One difference in words: which bet (or the call), which field, the record's value and the rules'. */
function differenceText(game, d) {
  const field = d.field.replace(/^.*\./, "");
  const says = `the record says ${shown(field, d.recorded)}, the rules give ${shown(field, d.recomputed)}`;
  if (d.what === "call") return `The call, ${callField(d.field)}: ${says}`;
  if (d.what === "house") return `The house's net: ${says}`;
  const who = d.bet.player === (session.user && session.user.username) ? "yours" : d.bet.player;
  const bet = `${d.bet.spot ? betName(game, d.bet.spot) : "A bet"} ${who ? `(${who}) ` : ""}`;
  return `${bet}· ${FIELDS[field] || field.replace(/_/g, " ")}: ${says}`;
}

function settlementView(result, round) {
  const check = result.settlement;
  const good = (ok, text, ...more) => h("li", { class: ok ? "pass" : "fail" }, h("span", { "aria-hidden": "true" }, ok ? "✔ " : "✘ "), text, ...more);
  const bets = count("words.bets", check.bets);
  if (check.reason) return good(false, `The settlement is not checked: ${check.reason}`);
  if (check.ok) {
    return good(true, check.voided !== null && check.voided !== undefined
      ? `The settlement matches: the round was voided and each of its ${bets} refunded in full`
      : `The settlement matches: ${bets}, the call and every payout, settled again here from the cards and the table's rules`);
  }
  return good(false, `The settlement differs from the record (${check.differences.length}):`,
    h("ul", { class: "differences" }, check.differences.map((d) => h("li", {}, differenceText(round.game, d)))));
}

function verifyView(result, round) {
  if (!result.checks.length && result.reason) return h("p", { class: "verify-note" }, result.reason);
  const good = (ok, text) => h("li", { class: ok ? "pass" : "fail" }, h("span", { "aria-hidden": "true" }, ok ? "✔ " : "✘ "), text);
  const mismatches = result.checks.filter((c) => !c.ok).length;
  const facts = factsOf(round.game);
  const items = `${pieceOf(round.game)}${facts && facts.dice ? " and die" : ""}`;
  const verdict = result.live
    ? `Checked: the ${items}s are dealt in the order the rules deal them, and the settlement matches.`
    : `Verified: every ${items} matches the re-deal from the revealed seeds, and the settlement matches.`;
  return h("div", { class: ["verify-result", result.ok ? "verified" : "failed"], "data-verified": String(result.ok),
    "data-settled": String(result.settlement.ok) },
    h("p", { class: "verdict" }, result.ok ? verdict : !result.cardsOk
      ? `Not verified: the ${items}s are not what ${result.live ? "the rules deal" : "the seeds deal"}; see below.`
      : "Not verified: the settlement is not what the rules pay; see below."),
    h("ul", { class: "checks" },
      ...(result.live
        ? [good(result.dealing === null, result.dealing === null
          ? `${result.checks.length} dealt by hand, in the order the rules deal them (a live round has no seeds)`
          : `The ${items}s are not what the rules deal: ${result.dealing}`)]
        : [good(result.hashOk, `SHA-256 of the server seed is ${result.hash.slice(0, 16)}…, the hash published before the first bet`),
          good(result.complete, `${result.expected.length} dealt by the seeds, ${result.checks.length} in the log`),
          good(mismatches === 0, mismatches ? `${mismatches} do not match` : "each position holds what the seeds deal")]),
      settlementView(result, round)),
    result.live ? null : h("details", {}, h("summary", {}, "Card by card"),
      h("table", { class: "verify-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Position"), h("th", { scope: "col" }, "In the log"), h("th", { scope: "col" }, "Re-dealt"), h("th", { scope: "col" }, ""))),
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
      replace(verifyBox, h("p", {}, live ? "Settling again from the cards…" : "Re-dealing from the seeds…"));
      try {
        replace(verifyBox, verifyView(await verifyRound(round, await games()), round));
      } catch (error) {
        replace(verifyBox, h("p", { class: "fail" }, `The re-deal failed: ${error.message}`));
      } finally {
        verifyButton.disabled = false;
      }
    } }, "Verify");
  return h("article", { class: "recall", "data-round-id": round.round_id, "aria-labelledby": `recall-${round.round_id}` },
    h("header", {},
      h("h2", { id: `recall-${round.round_id}` }, `${gameName(round.game)} · round ${round.round_id}`),
      h("p", { class: "quiet" }, `Table ${round.table_id} · nonce ${round.nonce} · ${when(round.opened_at)} · ${round.state}`)),
    h("div", { class: "recall-body" },
    h("div", { class: "recall-play" },
    round.result ? h("p", { class: "call" }, round.result.call) : null,
    finalCards(round),
    h("table", { class: "payouts" },
      h("caption", {}, "Wagers"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Bet"), h("th", { scope: "col" }, "Stake"), h("th", { scope: "col" }, "Result"), h("th", { scope: "col" }, "Paid"))),
      h("tbody", {}, round.wagers.map((w) => h("tr", {},
        h("th", { scope: "row" }, betName(round.game, w.bet)), h("td", {}, money(w.amount_cents)),
        h("td", { "data-result": w.result || "open" }, resultWord(w.result, round.state === "voided")), h("td", {}, w.payout_cents === null ? "—" : money(w.payout_cents)))))),
    h("dl", { class: "facts compact balances" },
      h("div", {}, h("dt", {}, "Balance before"), h("dd", { "data-cents": round.balance_before_cents }, money(round.balance_before_cents))),
      h("div", {}, h("dt", {}, "Balance after"), h("dd", { "data-cents": round.balance_after_cents }, money(round.balance_after_cents))),
      h("div", {}, h("dt", {}, "Won or lost"), h("dd", {}, over ? signed(paid - staked) : "in play"))),
    h("details", { class: "steps" }, h("summary", {}, `Steps (${round.events.length})`),
      h("ol", {}, round.events.map((event) => h("li", { "data-kind": event.kind }, describe(round.game, event)))))),
    h("section", { class: "fairness", "aria-label": "Provably fair" },
      h("h3", {}, "Provably fair"),
      round.server_seed_hash
        ? h("dl", { class: "facts seeds" },
          h("div", {}, h("dt", {}, "Server seed SHA-256"), h("dd", { class: "hash" }, round.server_seed_hash)),
          h("div", {}, h("dt", {}, "Server seed"), h("dd", { class: "hash" }, round.server_seed || "revealed when the round is over")),
          h("div", {}, h("dt", {}, "Client seed"), h("dd", { class: "hash" }, round.client_seed || "—")),
          h("div", {}, h("dt", {}, "Nonce"), h("dd", {}, String(round.nonce))))
        : h("p", { class: "quiet" }, "Dealt by a live dealer from a real shoe: no seeds; the engine checked every card entered, and Verify settles the round again here from those cards."),
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
      toast("Client seed saved: it cuts every shoe you are the highest bettor of.");
    } catch (error) {
      toast(error instanceof ApiError ? error.message : "The casino cannot be reached.", "error");
    }
  };
  get("/api/me/client-seed").then((answer) => {
    current.textContent = answer.client_seed || "none yet";
    input.value = answer.client_seed || "";
  }).catch(() => {});
  return h("section", { class: "panel seed-panel", "aria-labelledby": "seed-title" },
    h("h2", { id: "seed-title" }, "Your client seed"),
    h("p", {}, "When you are a round's highest bettor, your client seed cuts the shoe: the server committed to its own seed (its SHA-256 is shown before the first bet) and cannot choose yours. Current: ", current),
    h("form", { class: "inline-form", onSubmit: (event) => { event.preventDefault(); if (input.value.trim()) save(input.value.trim()); } },
      h("label", { for: "client-seed" }, "Client seed"), input,
      h("button", { type: "submit" }, "Save seed"),
      h("button", { type: "button", onClick: () => save(randomHex(16)) }, "New random seed")),
    h("small", { id: "client-seed-hint" }, "1 to 64 characters; used as typed."));
}

export function mount(main) {
  const list = h("div", { class: "recall-list", "aria-busy": "true" }, h("p", {}, "Loading your rounds…"));
  replace(main, h("section", { class: "history-page" },
    h("h1", {}, "My last rounds"),
    h("p", { class: "lead" }, "Your last ten rounds: each step, your wagers and what they paid, your balance before and after. Once a round is over its server seed is revealed: Verify re-deals it here, in your browser, with the published protocol, then settles it again from those cards and the table's rules and checks the call and every payout."),
    seedPanel(),
    list));
  let stopped = false;
  get("/api/me/history?limit=10").then((rounds) => {
    if (stopped) return;
    list.removeAttribute("aria-busy");
    replace(list, rounds.length ? rounds.map(roundCard) : h("p", { class: "panel" }, "No rounds yet: place a bet at a table."));
  }).catch((error) => {
    if (!stopped) replace(list, h("p", { class: "panel fail" }, error.message));
  });
  return () => {
    stopped = true;
  };
}
