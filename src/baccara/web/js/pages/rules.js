// A game's rules in brief, and every bet's house edge as the exact analysis gives it
// (GET /api/games runs baccara's exact analyzer): a percentage beside the exact fraction.
// With ?table=ID, that table's own rules (GET /api/tables/{id}/rules): a table may deal
// one deck, or charge another commission, and its edges are computed for its rules. A
// table whose minimum bet is paid with a payout rounded down to the cent (a 0.25 Banker
// win pays 0.23) shows each such bet's edge at that minimum beside the exact one.

import { get, games } from "../api.js";
import { stepText } from "../chips.js";
import { h, money, replace } from "../dom.js";
import { betName, orList, paysText } from "../layouts.js";

export function percent(edge, digits = 4) {
  return `${(100 * edge).toFixed(digits)} %`;
}

function outcomeName(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

const RANKS = { A: "an Ace", K: "a King", Q: "a Queen", J: "a Jack" };

/** A rule option's value in words: how each kind of value reads (the option's name,
 * as the game's facts give it, comes from the registry). */
const WORDS = {
  commission: (v) => `${v} %`,
  split_aces_unless: (v) => `${RANKS[v] || `a ${v}`} or better`,
  split_kings_unless: (v) => `${RANKS[v] || `a ${v}`} or better`,
  deuces: (v) => (v === "top" ? "every pair (three of a kind)" : "a pair (three) of Aces only, and loses to all others"),
};

function words(name, value) {
  if (WORDS[name]) return WORDS[name](value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (name.endsWith("_pays") && typeof value === "number") return paysText(value);
  return String(value);
}

/** "Commission on a winning Red or Green": the bets the game's facts say are charged it. */
function commissionLabel(game) {
  const on = game.commission_on || [];
  return on.length ? `Commission on a winning ${orList(on.map((bet) => betName(game.id, bet)))}` : null;
}

function ruleRow(game, name, value, changed) {
  const named = (game.option_labels || {})[name];
  const label = named || (name === "commission" ? commissionLabel(game) : null) || outcomeName(name);
  return h("div", { "data-rule": name, class: changed ? "changed" : null },
    h("dt", {}, label), h("dd", {}, words(name, value), changed ? h("span", { class: "badge" }, "this table") : null));
}

/** "0.25" for 25 cents: the amounts a rounding note quotes, to the fraction of a cent. */
function exactly(cents) {
  return (cents / 100).toFixed(cents % 1 ? 4 : 2);
}

function betTable(game, caption, atMin) {
  const rounded = new Map((atMin ? atMin.bets : []).map((b) => [b.bet, b]));
  return h("table", { class: "edges" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Bet"),
      h("th", { scope: "col" }, "Pays"),
      h("th", { scope: "col" }, "House edge"))),
    h("tbody", {}, game.bets.map((bet) => {
      const wins = bet.outcomes.filter((o) => o.pays > 0);
      return h("tr", { "data-bet": bet.bet },
        h("th", { scope: "row" }, betName(game.id, bet.bet)),
        h("td", {}, h("ul", { class: "pays-list" }, wins.map((o) => h("li", {}, `${outcomeName(o.name)}: ${paysText(o.pays)}`, h("span", { class: "quiet" }, ` · ${(100 * o.probability).toFixed(4)} %`))))),
        h("td", { class: "edge-cell" },
          h("span", { class: "edge", "data-edge": String(bet.house_edge) }, percent(bet.house_edge)),
          h("span", { class: "exact", title: "exactly" }, h("code", {}, bet.house_edge_exact)),
          rounded.has(bet.bet)
            ? h("span", { class: "at-min", "data-edge-at-min": String(rounded.get(bet.bet).house_edge) },
              `${percent(rounded.get(bet.bet).house_edge)} at the ${money(atMin.stake_cents)} minimum`)
            : null,
          publishedNote(bet.published)));
    })));
}

/** The figures the game's rule document prints for a bet, beside the exact ones: quoted
 * with the document's own digits, the exact one with two more, and whether they agree. */
function publishedNote(published) {
  if (!published) return null;
  return h("div", { class: "published", "data-published": published.source },
    h("span", { class: "quiet" }, `Published (${published.source}):`),
    h("ul", { class: "pays-list" }, published.figures.map((f) =>
      h("li", { "data-figure": f.name, "data-agrees": String(f.agrees) },
        `${outcomeName(f.name)} ${f.published}`,
        h("span", { class: "quiet" }, f.agrees ? ` · exactly ${f.exact}, the same to its digits` : ` · exactly ${f.exact}, which differs`)))));
}

/** Where rounding payouts down to the cent moves a table's edges, in words: at its minimum
 * bet (each payout there as it is paid), and at which stakes no payout is rounded. */
function roundingNote(game, table, atMin) {
  const whole = game.whole_cents_step_cents;
  if (atMin && atMin.bets.length) {
    const first = atMin.bets[0];
    const paid = first.outcomes[0];
    const example = paid
      ? ` — a ${betName(game.id, first.bet)} ${outcomeName(paid.name).toLowerCase()} on ${money(atMin.stake_cents)} pays ${money(paid.won_cents)}, not ${exactly(atMin.stake_cents * paid.pays)}`
      : "";
    return `At this table's minimum bet of ${money(atMin.stake_cents)} a payout that is not whole cents is rounded down${example}; so the edge there is higher, as marked. Stakes in multiples of ${money(whole)} are paid in whole cents, at the edges shown.`;
  }
  if (table.bet_step_cents % whole === 0) {
    return `Stakes here go in steps of ${money(table.bet_step_cents)}: every payout is whole cents, and every stake has the edges shown.`;
  }
  return `Stakes here go in steps of ${money(table.bet_step_cents)}; a payout that is not whole cents is rounded down. Stakes in multiples of ${money(whole)} are paid in whole cents, at the edges shown.`;
}

/** What a table deals from, in words: a fresh shoe every round, or a continuous one. */
function shoeText(game, table) {
  const what = `${game.piece || "card"}s`;
  if (table.shoe.mode === "continuous") {
    return `A continuous shoe: the ${what} are not reshuffled between rounds but dealt down to the cut card, at ${Math.round(table.shoe.penetration * 100)} %. The edges below are those off the top of a full shoe; as ${what} leave it, each bet's edge moves.`;
  }
  return `The ${what} are reshuffled before every round.`;
}

export function mount(main, [id]) {
  replace(main, h("section", { class: "panel" }, h("p", {}, "Counting every deal exactly…")));
  const tableId = new URLSearchParams(location.search).get("table");
  let stopped = false;
  const asked = /^\d{1,9}$/.test(tableId || "") ? get(`/api/tables/${tableId}/rules`) : Promise.resolve(null);
  Promise.all([games(), asked]).then(([all, ofTable]) => {
    if (stopped) return;
    const game = ofTable || all.find((g) => g.id === id);
    const tabs = h("nav", { class: "tabs", "aria-label": "Games" }, all.map((g) =>
      h("a", { href: `/rules/${g.id}`, "data-link": true, "aria-current": game && g.id === game.id && !ofTable ? "page" : null }, g.name)));
    if (!game) {
      replace(main, h("section", { class: "rules-page" }, tabs, h("h1", {}, "No such game")));
      return;
    }
    const facts = [
      `${game.seats} seats`,
      game.seat_required ? "a seat is needed to bet" : "bets also from behind the seats",
      game.peek ? `the highest bettor on ${orList((game.hands || []).map((hand) => hand.name))} may peek at the hand they backed` : null,
      game.choose_first_hand ? "the highest bettor chooses which hand is set first" : null,
    ].filter(Boolean);
    const changed = new Set(ofTable ? ofTable.changed : []);
    const table = ofTable ? ofTable.table : null;
    replace(main, h("section", { class: "rules-page", "aria-labelledby": "rules-title" },
      tabs,
      h("h1", { id: "rules-title" }, table ? `${game.name} at table ${table.id}: rules and house edges` : `${game.name}: rules and house edges`),
      table
        ? h("section", { class: "table-rules", "aria-labelledby": "table-rules-title" },
          h("h2", { id: "table-rules-title" }, `Table ${table.id}`),
          h("p", {}, `${table.mode === "live" ? "Live dealer" : "Electronic"} · limits ${money(table.min_bet_cents)} – ${money(table.max_bet_cents)} a spot${stepText(table)}${table.status === "open" ? "" : " · closed"}. `,
            changed.size ? "Its rules differ from the game's defaults where marked." : "It deals the game's default rules."),
          h("dl", { class: "facts rules-list" }, Object.entries(game.rules).map(([name, value]) => ruleRow(game, name, value, changed.has(name)))),
          h("p", { class: "shoe-note" }, shoeText(game, table)))
        : null,
      h("p", { class: "lead" }, table && changed.size ? `The game as usually dealt: ${game.brief}` : game.brief),
      h("p", {}, `${facts.join("; ").replace(/^./, (c) => c.toUpperCase())}.`),
      betTable(game, table ? `Every bet, under table ${table.id}'s rules` : "Every bet, under the game's default rules", ofTable ? ofTable.at_min_bet : null),
      table ? h("p", { class: "rounding-note" }, roundingNote(game, table, ofTable.at_min_bet)) : null,
      h("p", { class: "quiet" }, `The house edge is the share of each stake the house keeps in the long run, counted over every possible deal — not simulated. Payouts in cents round down, in the house's favour; on stakes in multiples of ${money(game.whole_cents_step_cents)} none is rounded.`),
      table && changed.size ? h("p", {}, h("a", { href: `/rules/${game.id}`, "data-link": true }, `${game.name} under its default rules`)) : null));
  }).catch((error) => {
    if (!stopped) replace(main, h("section", { class: "panel fail" }, error.message));
  });
  return () => {
    stopped = true;
  };
}
