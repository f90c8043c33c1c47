// The lobby: every open table with its game, mode, limits and seats taken, and, live
// over the lobby's one WebSocket (lobbyfeed.js), each table's round state and countdown,
// its last results in miniature, the players seated and the pages watching it.

import { h, money, replace } from "../dom.js";
import { factsOf } from "../layouts.js";
import { LobbyFeed } from "../lobbyfeed.js";
import { session } from "../session.js";

const TICK_MS = 250;

/** The roads of every game (gameroads.js), loaded once; a lobby without them still works. */
const roads = import("../gameroads.js").catch(() => null);

const PHASES = {
  betting: "Place your bets",
  dealing: "Dealing",
  peek: "Peek",
  choosing: "Choosing a hand",
  revealing: "Revealing",
  settled: "Result",
  voided: "Round voided",
};

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
    h("p", { class: "table-state", "data-fact": "state", "data-state": table.round ? table.round.state : "none" },
      h("span", { class: "phase" }, phaseText(table)),
      h("span", { class: "countdown", role: "timer", "aria-live": "off", "data-deadline": deadlineOf(table) })),
    h("div", { class: "table-road", "data-fact": "road", "aria-label": `${table.name}: the last results` }),
    h("dl", { class: "facts" },
      h("div", {}, h("dt", {}, "Mode"), h("dd", { "data-fact": "mode" }, live ? "Live dealer" : "Electronic")),
      h("div", {}, h("dt", {}, "Limits"), h("dd", { "data-fact": "limits" }, `${money(table.min_bet_cents)} – ${money(table.max_bet_cents)}`)),
      h("div", {}, h("dt", {}, "Seats taken"), h("dd", { "data-fact": "seats" }, `${taken} of ${table.seats}`)),
      h("div", {}, h("dt", {}, "Watching"), h("dd", { "data-fact": "watching" }, String(table.watching || 0))),
      h("div", {}, h("dt", {}, "Table"), h("dd", {}, `#${table.id}${table.shoe.mode === "continuous" ? " · continuous shoe" : ""}`))),
    h("p", { class: "table-links" },
      h("a", { href: `/rules/${table.game}?table=${table.id}`, "data-link": true, "aria-label": `${table.name} rules and house edges, table ${table.id}` }, "Rules & house edge"),
      dealer ? h("a", { href: `/dealer/${table.id}`, "data-link": true, class: "dealer-link" }, `Dealer console, table ${table.id}`) : null));
}

/** The round's state in words: "Place your bets" (with the countdown beside it once a
 * bet started the timer), "Dealing", "Peek"…; a table between rounds says nothing. */
function phaseText(table) {
  const round = table.round;
  if (!round) return "Opening";
  if (round.state === "betting" && round.deadline === null) return "Betting open";
  if (round.state === "dealing" && table.mode === "live") return "Dealer dealing";
  return PHASES[round.state] || round.state;
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
  card.querySelector('[data-fact="seats"]').textContent = `${Object.keys(table.seated).length} of ${table.seats}`;
  card.querySelector('[data-fact="watching"]').textContent = String(table.watching || 0);
  drawRoad(card.querySelector('[data-fact="road"]'), table);
}

function tick(countdown, feed) {
  const deadline = countdown.dataset.deadline;
  countdown.textContent = deadline === undefined ? "" : `${Math.ceil(feed.left(Number(deadline)))} s`;
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
  const list = h("ul", { class: "lobby", "aria-label": "Tables" });
  const note = h("p", { class: "lead" });
  const status = h("p", { class: "lobby-status", role: "status" });
  replace(main, h("section", { class: "lobby-page" },
    h("h1", {}, "Tables"),
    note,
    status,
    list));
  note.textContent = session.user
    ? "Pick a table. Bets are placed with chips; the cards are dealt when every seated bettor presses Deal or the countdown ends."
    : "Sign in or register to play; anyone may look at the tables and the rules.";
  const cards = new Map();
  const feed = new LobbyFeed({
    onStatus(state) {
      status.textContent = state === "reconnecting" ? "The casino cannot be reached; retrying." : "";
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
      if (!ordered.length && !empty) list.append(h("li", { class: "empty" }, "No table is open."));
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
