// The lobby: every open table with its game, mode, limits and seats taken, and, live
// over the lobby's one WebSocket (lobbyfeed.js), each table's round state and countdown,
// its last results in miniature, the players seated and the pages watching it.

import { h, money, replace } from "../dom.js";
import { has, t } from "../i18n.js";
import { betName, factsOf, tableName } from "../layouts.js";
import { LobbyFeed } from "../lobbyfeed.js";
import { session } from "../session.js";
import { number } from "../words.js";

const TICK_MS = 250;

/** The roads of every game (gameroads.js), loaded once; a lobby without them still works. */
const roads = import("../gameroads.js").catch(() => null);

/** The decks a card table deals from, in words ("Eight decks"), from one to eight; a
 * count past them by the plural entry. */
function decksText(decks) {
  return has(`lobby.decks.${decks}`) ? t(`lobby.decks.${decks}`) : t("lobby.decks_many", { n: decks });
}

/** The game in a line (the catalog's, by the game's id; else its facts' tagline), and
 * the decks a card table deals from. */
function blurb(table) {
  const facts = factsOf(table.game);
  const key = `lobby.tagline.${table.game}`;
  const text = has(key) ? t(key) : facts ? facts.tagline : "";
  const decks = (table.options && table.options.decks) || (facts && facts.rules ? facts.rules.decks : null);
  return decks ? t("lobby.blurb", { tagline: text, decks: decksText(decks) }) : text;
}

function seatsText(table) {
  return t("lobby.seats_taken", { taken: Object.keys(table.seated).length, seats: table.seats });
}

function row(table) {
  const live = table.mode === "live";
  const dealer = session.user && (session.user.role === "dealer" || session.user.role === "admin") && live;
  return h("li", { class: ["table-card", `game-${table.game}`], "data-table-id": table.id },
    h("h2", {}, h("a", { href: `/tables/${table.id}`, "data-link": true, class: "table-link" }, tableName(table)), h("span", { class: "arrow", "aria-hidden": "true" }, "→"), live ? h("span", { class: "live-badge" }, t("lobby.live_badge")) : null),
    h("p", { class: "table-blurb" }, blurb(table)),
    table.sidebets && table.sidebets.length
      ? h("p", { class: "table-sidebets", "data-fact": "sidebets" }, t("lobby.sidebets", { bets: table.sidebets.map((bet) => betName(table.game, bet)).join(t("games.list_separator")) }))
      : null,
    h("p", { class: "table-state", "data-fact": "state", "data-state": table.round ? table.round.state : "none" },
      h("span", { class: "phase" }, phaseText(table)),
      h("span", { class: "countdown", role: "timer", "aria-live": "off", "data-deadline": deadlineOf(table) })),
    h("div", { class: "table-road", "data-fact": "road", role: "group", "aria-label": t("lobby.road_label", { table: tableName(table) }), "data-empty": t("lobby.no_results") }),
    h("dl", { class: "facts" },
      h("div", {}, h("dt", {}, t("lobby.fact.mode")), h("dd", { "data-fact": "mode" }, live ? t("lobby.mode.live") : t("lobby.mode.electronic"))),
      h("div", {}, h("dt", {}, t("lobby.fact.limits")), h("dd", { "data-fact": "limits" }, t("lobby.limits", { min: money(table.min_bet_cents), max: money(table.max_bet_cents) }))),
      h("div", {}, h("dt", {}, t("lobby.fact.seats")), h("dd", { "data-fact": "seats" }, seatsText(table))),
      h("div", {}, h("dt", {}, t("lobby.fact.watching")), h("dd", { "data-fact": "watching" }, number(table.watching || 0))),
      h("div", {}, h("dt", {}, t("lobby.fact.table")), h("dd", {}, t(table.shoe.mode === "continuous" ? "lobby.table_number_continuous" : "lobby.table_number", { id: table.id })))),
    h("p", { class: "table-links" },
      h("a", { href: `/rules/${table.game}?table=${table.id}`, "data-link": true, "aria-label": t("a11y.rules_link", { link: t("lobby.rules_link"), table: tableName(table), id: table.id }) }, t("lobby.rules_link")),
      dealer ? h("a", { href: `/dealer/${table.id}`, "data-link": true, class: "dealer-link" }, t("lobby.dealer_link", { id: table.id })) : null));
}

/** The round's state in words: "Place your bets" (with the countdown beside it once a
 * bet started the timer), "Dealing", "Peek"…; a table between rounds says nothing. */
function phaseText(table) {
  const round = table.round;
  if (!round) return t("lobby.phase.opening");
  if (round.state === "betting" && round.deadline === null) return t("lobby.phase.betting_open");
  if (round.state === "dealing" && table.mode === "live") return t("lobby.phase.dealer_dealing");
  return has(`lobby.phase.${round.state}`) ? t(`lobby.phase.${round.state}`) : round.state;
}

function deadlineOf(table) {
  return table.round && table.round.deadline !== null ? table.round.deadline : null;
}

/** The dynamic parts of a card, in place (its links keep their focus). */
function update(card, table, feed) {
  const state = card.querySelector('[data-fact="state"]');
  state.dataset.state = table.round ? table.round.state : "none";
  state.querySelector(".phase").textContent = phaseText(table);
  const countdown = state.querySelector(".countdown");
  const deadline = deadlineOf(table);
  if (deadline === null) countdown.removeAttribute("data-deadline");
  else countdown.dataset.deadline = String(deadline);
  tick(countdown, feed);
  card.querySelector('[data-fact="seats"]').textContent = seatsText(table);
  card.querySelector('[data-fact="watching"]').textContent = number(table.watching || 0);
  drawRoad(card.querySelector('[data-fact="road"]'), table);
}

function tick(countdown, feed) {
  const deadline = countdown.dataset.deadline;
  countdown.textContent = deadline === undefined ? "" : t("lobby.seconds_left", { n: Math.ceil(feed.left(Number(deadline))) });
}

async function drawRoad(slot, table) {
  slot.dataset.count = String(table.recent.length);
  const module = await roads;
  if (!module || !module.miniRoadFor || !module.outcomesFor) return;
  const key = table.recent.length ? `${table.recent.length}:${table.recent[table.recent.length - 1].nonce}` : "0";
  if (slot.dataset.drawn === key) return;
  slot.dataset.drawn = key;
  replace(slot, module.miniRoadFor(table.game, module.outcomesFor(table.game, table.recent)));
}

export function mount(main) {
  const list = h("ul", { class: "lobby", "aria-label": t("lobby.tables_label") });
  const note = h("p", { class: "lead" });
  const status = h("p", { class: "lobby-status", role: "status" });
  replace(main, h("section", { class: "lobby-page" },
    h("h1", {}, t("lobby.title")),
    note,
    status,
    list));
  note.textContent = session.user
    ? t("lobby.lead_player")
    : t("lobby.lead_guest");
  const cards = new Map();
  const feed = new LobbyFeed({
    onStatus(state) {
      status.textContent = state === "reconnecting" ? t("lobby.reconnecting") : "";
    },
    onChange(tables) {
      for (const [id, card] of cards) {
        if (!tables.has(id)) {
          card.remove();
          cards.delete(id);
        }
      }
      const ordered = [...tables.values()].sort((a, b) => a.id - b.id);
      let before = null;
      for (const table of ordered) {
        let card = cards.get(table.id);
        if (!card) {
          card = row(table);
          cards.set(table.id, card);
        }
        update(card, table, feed);
        const next = before ? before.nextElementSibling : list.firstElementChild;
        if (card !== next) list.insertBefore(card, next);
        before = card;
      }
      const empty = list.querySelector("li.empty");
      if (ordered.length && empty) empty.remove();
      if (!ordered.length && !empty) list.append(h("li", { class: "empty" }, t("lobby.empty")));
    },
  });
  feed.start();
  const ticker = setInterval(() => {
    for (const countdown of list.querySelectorAll(".countdown[data-deadline]")) tick(countdown, feed);
  }, TICK_MS);
  return () => {
    clearInterval(ticker);
    feed.stop();
  };
}
