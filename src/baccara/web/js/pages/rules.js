// A game's rules in brief, and every bet's house edge as the exact analysis gives it
// (GET /api/games runs baccara's exact analyzer): a percentage beside the exact fraction.
// With ?table=ID, that table's own rules (GET /api/tables/{id}/rules): a table may deal
// one deck, or charge another commission, and its edges are computed for its rules. A
// table whose minimum bet is paid with a payout rounded down to the cent (a 0.25 Banker
// win pays 0.23) shows each such bet's edge at that minimum beside the exact one.

import { get, games } from "../api.js";
import { stepText } from "../chips.js";
import { h, money, replace } from "../dom.js";
import { failureText } from "../failure.js";
import { has, locale, t } from "../i18n.js";
import { betName, conditionText, gameName, handName, orList, outcomeName as outcomeWords, paysText, tableName } from "../layouts.js";

export function percent(edge, digits = 4) {
  return `${(100 * edge).toFixed(digits)} %`;
}

/** A catalog key's last part from a name the casino serves: "push (exposed)" → "push_exposed". */
const slug = (name) => String(name).toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");

/**
 * What the casino serves in English (a game's brief, an option's label, a published
 * figure's source), in the page's language: English reads the casino's own words, which
 * may be a table's own; another language reads the catalog's, by the fact's id.
 */
function served(key, english) {
  if (locale() === "en" && english) return english;
  return has(key) ? t(key) : english;
}

/** An outcome as a sentence starts it: "Win", "Win-bonus (0 points)", "Royal flush". */
function outcomeName(name) {
  return outcomeWords(name).replace(/^./, (c) => c.toUpperCase());
}

/** "an Ace or better", "a Jack or better": the odd card that keeps a pair together. */
function orBetter(rank) {
  const card = has(`rules.rank.${rank}`) ? t(`rules.rank.${rank}`) : t("rules.rank.other", { rank });
  return t("rules.or_better", { rank: card });
}

/** A rule option's value in words: how each kind of value reads (the option's name,
 * as the game's facts give it, comes from the registry). */
const WORDS = {
  commission: (v) => `${v} %`,
  split_aces_unless: orBetter,
  split_kings_unless: orBetter,
  deuces: (v) => served(`rules.deuces.${slug(v)}`, v === "top" ? "every pair (three of a kind)" : "a pair (three) of Aces only, and loses to all others"),
};

/** The rule set and side bets a table names by id, by their names (GET /api/games' catalog). */
function catalogWords(game, name, value) {
  const catalog = game.catalog || { rule_sets: [], sidebets: [] };
  if (name === "variant") {
    const found = catalog.rule_sets.find((set) => set.id === value);
    return found ? tableName({ game: game.id, name: found.name, rule_set: found }) : String(value);
  }
  const ids = Array.isArray(value) ? value : [];
  return ids.length ? ids.map((id) => betName(game.id, id)).join(t("games.list_separator")) : t("rules.sidebets_none");
}

function words(name, value, game) {
  if (game.catalog && (name === "variant" || name === "sidebets")) return catalogWords(game, name, value);
  if (WORDS[name]) return WORDS[name](value);
  if (typeof value === "boolean") return value ? t("rules.yes") : t("rules.no");
  if (name.endsWith("_pays") && typeof value === "number") return paysText(value);
  if (typeof value === "string" && has(`rules.value.${name}.${slug(value)}`)) return t(`rules.value.${name}.${slug(value)}`);
  return String(value);
}

/** "Commission on a winning Red or Green": the bets the game's facts say are charged it. */
function commissionLabel(game) {
  const on = game.commission_on || [];
  return on.length ? t("rules.commission_on", { bets: orList(on.map((bet) => betName(game.id, bet))) }) : null;
}

function ruleRow(game, name, value, changed) {
  const named = (game.option_labels || {})[name];
  const label = (named && served(`rules.option.${name}`, named)) || (name === "commission" ? commissionLabel(game) : null)
    || (has(`rules.option.${name}`) ? t(`rules.option.${name}`) : outcomeName(name));
  return h("div", { "data-rule": name, class: changed ? "changed" : null },
    h("dt", {}, label), h("dd", {}, words(name, value, game), changed ? h("span", { class: "badge" }, t("rules.this_table")) : null));
}

/** "0.25" for 25 cents: the amounts a rounding note quotes, to the fraction of a cent. */
function exactly(cents) {
  return (cents / 100).toFixed(cents % 1 ? 4 : 2);
}

/**
 * The pay lines behind a bet's outcomes at these rules: a side bet's, or the rule set's
 * lines for a Banker or Player win (GET /api/games' catalog). Its analysis names each
 * outcome a line decides by the line's condition, which this reads in the page's words.
 */
function linesOf(game, bet) {
  const catalog = game.catalog;
  if (!catalog) return [];
  const side = catalog.sidebets.find((s) => s.id === bet);
  if (side) return side.lines;
  const set = catalog.rule_sets.find((s) => s.id === (game.rules || {}).variant);
  return set && (bet === "banker" || bet === "player") ? set[bet] : [];
}

function betTable(game, caption, atMin) {
  const rounded = new Map((atMin ? atMin.bets : []).map((b) => [b.bet, b]));
  return h("table", { class: "edges" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("rules.col.bet")),
      h("th", { scope: "col" }, t("rules.col.pays")),
      h("th", { scope: "col" }, t("rules.col.edge")))),
    h("tbody", {}, game.bets.map((bet) => {
      const lines = linesOf(game, bet.bet);
      const lineOf = (o) => lines.find((line) => line.condition === o.name);
      const named = (o) => { // a line's condition in the page's words, or the outcome's name
        const line = lineOf(o);
        return line ? conditionText(game.id, line.when).replace(/^./, (c) => c.toUpperCase()) : outcomeName(o.name);
      };
      const shown = bet.outcomes.filter((o) => o.pays > 0 || (o.pays === 0 && lineOf(o))); // a line's push too (EZ Baccarat's)
      return h("tr", { "data-bet": bet.bet },
        h("th", { scope: "row" }, betName(game.id, bet.bet)),
        h("td", {}, h("ul", { class: "pays-list" }, shown.map((o) => h("li", {}, t("rules.outcome_pays", { outcome: named(o), pays: o.pays > 0 ? paysText(o.pays) : t("games.term.push") }), h("span", { class: "quiet" }, ` · ${(100 * o.probability).toFixed(4)} %`))))),
        h("td", { class: "edge-cell" },
          h("span", { class: "edge", "data-edge": String(bet.house_edge) }, percent(bet.house_edge)),
          h("span", { class: "exact", title: t("rules.exactly") }, h("code", {}, bet.house_edge_exact)),
          rounded.has(bet.bet)
            ? h("span", { class: "at-min", "data-edge-at-min": String(rounded.get(bet.bet).house_edge) },
              t("rules.at_min", { edge: percent(rounded.get(bet.bet).house_edge), min: money(atMin.stake_cents) }))
            : null,
          publishedNote(bet.published)));
    })));
}

/** The figures the game's rule document prints for a bet, beside the exact ones: quoted
 * with the document's own digits, the exact one with two more, and whether they agree. */
function publishedNote(published) {
  if (!published) return null;
  return h("div", { class: "published", "data-published": published.source },
    h("span", { class: "quiet" }, t("rules.published", { source: served(`rules.source.${slug(published.source)}`, published.source) })),
    h("ul", { class: "pays-list" }, published.figures.map((f) =>
      h("li", { "data-figure": f.name, "data-agrees": String(f.agrees) },
        t("rules.figure", { name: has(`rules.figure_name.${slug(f.name)}`) ? t(`rules.figure_name.${slug(f.name)}`) : outcomeName(f.name), figure: f.published }),
        h("span", { class: "quiet" }, t(f.agrees ? "rules.figure_agrees" : "rules.figure_differs", { exact: f.exact }))))));
}

/** Where rounding payouts down to the cent moves a table's edges, in words: at its minimum
 * bet (each payout there as it is paid), and at which stakes no payout is rounded. */
function roundingNote(game, table, atMin) {
  const whole = game.whole_cents_step_cents;
  if (atMin && atMin.bets.length) {
    const first = atMin.bets[0];
    const paid = first.outcomes[0];
    const figures = { min: money(atMin.stake_cents), whole: money(whole) };
    if (!paid) return t("rules.rounding.at_min", figures);
    return t("rules.rounding.at_min_example", {
      ...figures, bet: betName(game.id, first.bet), outcome: outcomeWords(paid.name), won: money(paid.won_cents), exact: exactly(atMin.stake_cents * paid.pays),
    });
  }
  if (table.bet_step_cents % whole === 0) return t("rules.rounding.whole_steps", { step: money(table.bet_step_cents) });
  return t("rules.rounding.steps", { step: money(table.bet_step_cents), whole: money(whole) });
}

/** What a table deals from, in words: a fresh shoe every round, or a continuous one. */
function shoeText(game, table) {
  const piece = game.piece === "tile" ? "tile" : "card";
  if (table.shoe.mode === "continuous") return t(`rules.shoe.continuous_${piece}`, { cut: Math.round(table.shoe.penetration * 100) });
  return t(`rules.shoe.fresh_${piece}`);
}

export function mount(main, [id]) {
  replace(main, h("section", { class: "panel" }, h("p", {}, t("rules.counting"))));
  const tableId = new URLSearchParams(location.search).get("table");
  let stopped = false;
  const asked = /^\d{1,9}$/.test(tableId || "") ? get(`/api/tables/${tableId}/rules`) : Promise.resolve(null);
  Promise.all([games(), asked]).then(([all, ofTable]) => {
    if (stopped) return;
    const game = ofTable || all.find((g) => g.id === id);
    const tabs = h("nav", { class: "tabs", "aria-label": t("rules.games") }, all.map((g) =>
      h("a", { href: `/rules/${g.id}`, "data-link": true, "aria-current": game && g.id === game.id && !ofTable ? "page" : null }, gameName(g.id))));
    if (!game) {
      replace(main, h("section", { class: "rules-page" }, tabs, h("h1", {}, t("rules.no_game"))));
      return;
    }
    const name = ofTable ? tableName({ game: game.id, ...ofTable.table }) : gameName(game.id);
    const facts = [
      t("rules.facts.seats", { n: game.seats }),
      game.seat_required ? t("rules.facts.seat_required") : t("rules.facts.behind"),
      game.peek ? t("rules.facts.peek", { hands: orList((game.hands || []).map((hand) => handName(game.id, hand.hand))) }) : null,
      game.choose_first_hand ? t("rules.facts.choose") : null,
    ].filter(Boolean);
    const brief = served(`rules.brief.${game.id}`, game.brief);
    const changed = new Set(ofTable ? ofTable.changed : []);
    const table = ofTable ? ofTable.table : null;
    replace(main, h("section", { class: "rules-page", "aria-labelledby": "rules-title" },
      tabs,
      h("h1", { id: "rules-title" }, table ? t("rules.title_table", { game: name, table: table.id }) : t("rules.title", { game: name })),
      table
        ? h("section", { class: "table-rules", "aria-labelledby": "table-rules-title" },
          h("h2", { id: "table-rules-title" }, t("rules.table", { table: table.id })),
          h("p", {}, t(table.status === "open" ? "rules.table_facts" : "rules.table_facts_closed", {
            mode: t(table.mode === "live" ? "rules.mode.live" : "rules.mode.electronic"), min: money(table.min_bet_cents), max: money(table.max_bet_cents), step: stepText(table),
          }), " ", changed.size ? t("rules.table_differs") : t("rules.table_default")),
          h("dl", { class: "facts rules-list" }, Object.entries(game.rules).map(([name, value]) => ruleRow(game, name, value, changed.has(name)))),
          h("p", { class: "shoe-note" }, shoeText(game, table)))
        : null,
      h("p", { class: "lead" }, table && changed.size ? t("rules.usually", { brief }) : brief),
      h("p", {}, t("rules.facts.sentence", { facts: facts.join(t("rules.facts.separator")) }).replace(/^./, (c) => c.toUpperCase())),
      betTable(game, table ? t("rules.caption_table", { table: table.id }) : t("rules.caption_default"), ofTable ? ofTable.at_min_bet : null),
      table ? h("p", { class: "rounding-note" }, roundingNote(game, table, ofTable.at_min_bet)) : null,
      h("p", { class: "quiet" }, t("rules.edge_note", { whole: money(game.whole_cents_step_cents) })),
      table && changed.size ? h("p", {}, h("a", { href: `/rules/${game.id}`, "data-link": true }, t("rules.default_link", { game: gameName(game.id) }))) : null));
  }).catch((error) => {
    if (!stopped) replace(main, h("section", { class: "panel fail" }, failureText(error)));
  });
  return () => {
    stopped = true;
  };
}
