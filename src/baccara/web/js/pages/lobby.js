// The lobby: every open table with its game, mode, limits and seats taken.

import { get } from "../api.js";
import { h, money, replace } from "../dom.js";
import { factsOf } from "../layouts.js";
import { session } from "../session.js";

const REFRESH_MS = 10000;

const DECKS = ["no decks", "One deck", "Two decks", "Three decks", "Four decks", "Five decks", "Six decks", "Seven decks", "Eight decks"];

/** The game in a line (its facts' tagline), and the decks a card table deals from. */
function blurb(table) {
  const facts = factsOf(table.game);
  const text = facts ? facts.tagline : "";
  const decks = (table.options && table.options.decks) || (facts && facts.rules ? facts.rules.decks : null);
  return decks ? `${text} ${DECKS[decks] || `${decks} decks`}.` : text;
}

function row(table) {
  const taken = Object.keys(table.seated).length;
  const live = table.mode === "live";
  const dealer = session.user && (session.user.role === "dealer" || session.user.role === "admin") && live;
  return h("li", { class: ["table-card", `game-${table.game}`], "data-table-id": table.id },
    h("h2", {}, h("a", { href: `/tables/${table.id}`, "data-link": true, class: "table-link" }, table.name), h("span", { class: "arrow", "aria-hidden": "true" }, "→"), live ? h("span", { class: "live-badge" }, "LIVE") : null),
    h("p", { class: "table-blurb" }, blurb(table)),
    h("dl", { class: "facts" },
      h("div", {}, h("dt", {}, "Mode"), h("dd", { "data-fact": "mode" }, live ? "Live dealer" : "Electronic")),
      h("div", {}, h("dt", {}, "Limits"), h("dd", { "data-fact": "limits" }, `${money(table.min_bet_cents)} – ${money(table.max_bet_cents)}`)),
      h("div", {}, h("dt", {}, "Seats taken"), h("dd", { "data-fact": "seats" }, `${taken} of ${table.seats}`)),
      h("div", {}, h("dt", {}, "Table"), h("dd", {}, `#${table.id}${table.shoe.mode === "continuous" ? " · continuous shoe" : ""}`))),
    h("p", { class: "table-links" },
      h("a", { href: `/rules/${table.game}?table=${table.id}`, "data-link": true, "aria-label": `${table.name} rules and house edges, table ${table.id}` }, "Rules & house edge"),
      dealer ? h("a", { href: `/dealer/${table.id}`, "data-link": true, class: "dealer-link" }, `Dealer console, table ${table.id}`) : null));
}

export function mount(main) {
  const list = h("ul", { class: "lobby", "aria-label": "Tables" });
  const note = h("p", { class: "lead" });
  replace(main, h("section", { class: "lobby-page" },
    h("h1", {}, "Tables"),
    note,
    list));
  note.textContent = session.user
    ? "Pick a table. Bets are placed with chips; the cards are dealt when every seated bettor presses Deal or the countdown ends."
    : "Sign in or register to play; anyone may look at the tables and the rules.";
  let stopped = false;
  let timer = null;
  const load = async () => {
    try {
      const tables = await get("/api/tables");
      if (stopped) return;
      replace(list, tables.length ? tables.map(row) : h("li", { class: "empty" }, "No table is open."));
    } catch {
      if (!stopped && !list.childElementCount) replace(list, h("li", { class: "empty" }, "The casino cannot be reached; retrying."));
    }
    if (!stopped) timer = setTimeout(load, REFRESH_MS);
  };
  load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
