// A game's rules in brief, and every bet's house edge as the exact analysis gives it
// (GET /api/games runs baccara's exact analyzer): a percentage beside the exact fraction.

import { games } from "../api.js";
import { h, replace } from "../dom.js";
import { betName, paysText } from "../layouts.js";

export function percent(edge, digits = 4) {
  return `${(100 * edge).toFixed(digits)} %`;
}

function outcomeName(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function betTable(game) {
  return h("table", { class: "edges" },
    h("caption", {}, "Every bet, under this table's default rules"),
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
          h("span", { class: "exact", title: "exactly" }, h("code", {}, bet.house_edge_exact))));
    })));
}

export function mount(main, [id]) {
  replace(main, h("section", { class: "panel" }, h("p", {}, "Counting every deal exactly…")));
  let stopped = false;
  games().then((all) => {
    if (stopped) return;
    const game = all.find((g) => g.id === id);
    const tabs = h("nav", { class: "tabs", "aria-label": "Games" }, all.map((g) =>
      h("a", { href: `/rules/${g.id}`, "data-link": true, "aria-current": g.id === id ? "page" : null }, g.name)));
    if (!game) {
      replace(main, h("section", { class: "rules-page" }, tabs, h("h1", {}, "No such game")));
      return;
    }
    const facts = [
      `${game.seats} seats`,
      game.seat_required ? "a seat is needed to bet" : "bets also from behind the seats",
      game.peek ? "the highest bettor on Red or Green may peek at the hand they backed" : null,
      game.choose_first_hand ? "the highest bettor chooses which hand is set first" : null,
    ].filter(Boolean);
    replace(main, h("section", { class: "rules-page", "aria-labelledby": "rules-title" },
      tabs,
      h("h1", { id: "rules-title" }, `${game.name}: rules and house edges`),
      h("p", { class: "lead" }, game.brief),
      h("p", {}, `${facts.join("; ").replace(/^./, (c) => c.toUpperCase())}.`),
      betTable(game),
      h("p", { class: "quiet" }, "The house edge is the share of each stake the house keeps in the long run, counted over every possible deal — not simulated. Payouts in cents round down, in the house's favour.")));
  }).catch((error) => {
    if (!stopped) replace(main, h("section", { class: "panel fail" }, error.message));
  });
  return () => {
    stopped = true;
  };
}
