// The live dealer's console: call no more bets, enter each card (tile, die) from the
// keyboard as it is dealt, see what the rules need next and the hands set by the house
// way, pay and collect each seat (per side for RedGreen's two protecting dealers), void
// a misdeal with a reason, and — for a continuous shoe — watch every bet's exact edge
// on the cards left.

import { get, post } from "../api.js";
import { h, money, replace } from "../dom.js";
import { failureText } from "../failure.js";
import { has, t } from "../i18n.js";
import { betName, drawHands, gameName, headline, pieceOf } from "../layouts.js";
import { TableSocket } from "../live.js";
import { RoundState } from "../round.js";
import { percent } from "./rules.js";
import { positionLabel } from "../steps.js";
import { session } from "../session.js";

const CARD = /^(10|[2-9AJQKT])([SHDC])$/i;
const TILE = /^([1-7])-?([1-7])$/;
const DIE = /^[1-6]$/;

/** A dealer's keystrokes as the API's code: "ts" → "10S", "35" → "3-5"; null if not one. */
export function readEntry(text, kind) {
  const t = text.trim();
  if (kind === "die") return DIE.test(t) ? t : null;
  if (kind === "tile") {
    const m = TILE.exec(t);
    return m ? `${Math.min(m[1], m[2])}-${Math.max(m[1], m[2])}` : null;
  }
  const m = CARD.exec(t);
  if (!m) return null;
  return `${m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase()}${m[2].toUpperCase()}`;
}

/** Each seat's pay, collection and commission from a settlement's payouts. */
export function seatSettlement(payouts) {
  const seats = new Map();
  for (const p of payouts) {
    const key = p.seat ?? 0;
    if (!seats.has(key)) seats.set(key, { seat: p.seat, players: new Set(), pay: 0, collect: 0, commission: 0, push: 0 });
    const row = seats.get(key);
    row.players.add(p.player);
    if (p.won > 0) row.pay += p.won;
    else if (p.returned === 0) row.collect += p.stake;
    else if (p.returned < p.stake) row.collect += p.stake - p.returned;
    else row.push += p.stake;
    row.commission += p.commission;
  }
  return [...seats.values()].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
}

export function mount(main, [id]) {
  const tableId = Number(id);
  const st = { connection: ["connecting", ""], table: null, round: null, previous: null, seats: {}, needs: [], shoe: null, faceShown: new Set(), backShown: new Set(), closed: false, offset: null };
  let ticker = null;
  const ui = {};
  let built = false;

  if (!session.user || !["dealer", "admin"].includes(session.user.role)) {
    replace(main, h("section", { class: "panel" }, h("h1", {}, t("dealer.only")), h("p", {}, t("dealer.only_note"))));
    return null;
  }
  replace(main, h("section", { class: "panel" }, h("p", {}, t("dealer.opening"))));

  const reason = (error) => failureText(error, st.table && st.table.game);
  const kindName = (kind) => t(`dealer.kind.${kind === "die" || kind === "tile" ? kind : "card"}`);
  const phaseName = (phase) => (has(`dealer.phase.${phase}`) ? t(`dealer.phase.${phase}`) : phase);
  const connection = (state, detail) => {
    const word = has(`dealer.conn.${state}`) ? t(`dealer.conn.${state}`) : state;
    return state !== "live" && detail ? t("dealer.conn.detail", { state: word, detail }) : word;
  };
  /** A message in the panel of the control it answers, never over another panel. */
  const say = (node, text, kind) => {
    node.textContent = text;
    node.dataset.kind = kind || "";
  };
  const shownRound = () => {
    const r = st.round;
    if (r && (r.bets.size > 0 || r.phase !== "betting")) return r;
    return st.previous || r;
  };
  const nextKind = () => (st.needs[0] ? st.needs[0].kind : st.table ? pieceOf(st.table.game) : "card");

  async function refreshNeeds() {
    try {
      const answer = await get(`/api/tables/${tableId}/needs`);
      st.needs = answer.needs;
    } catch {
      st.needs = [];
    }
    draw();
  }

  async function refreshShoe() {
    if (!st.table || st.table.shoe.mode !== "continuous") return;
    try {
      st.shoe = await get(`/api/tables/${tableId}/shoe`);
    } catch (error) {
      st.shoe = { error: reason(error) };
    }
    drawShoe();
  }

  async function enter(text) {
    const tokens = text.split(/[\s,]+/).filter(Boolean);
    if (!tokens.length) return;
    const cards = [];
    const dice = [];
    const kinds = st.needs.map((n) => n.kind);
    for (let i = 0; i < tokens.length; i += 1) {
      const kind = kinds[i] || nextGuess(tokens[i]);
      const code = readEntry(tokens[i], kind);
      if (!code) {
        ui.entryError.textContent = t(`dealer.not_a.${kind === "die" || kind === "tile" ? kind : "card"}`, { entry: tokens[i] });
        return;
      }
      (kind === "die" ? dice : cards).push(code);
    }
    ui.entryError.textContent = "";
    ui.entry.value = "";
    try {
      const answer = await post(`/api/tables/${tableId}/cards`, { cards, dice });
      st.needs = answer.needs;
      draw();
      refreshShoe();
    } catch (error) {
      if (!ui.entry.value) ui.entry.value = text.trim();
      ui.entryError.textContent = reason(error);
    }
  }

  function nextGuess(token) {
    if (pieceOf(st.table.game) === "card") return "card";
    return DIE.test(token) ? "die" : "tile";
  }

  async function closeBetting() {
    say(ui.roundMessage, "");
    try {
      await post(`/api/tables/${tableId}/close-betting`);
      refreshNeeds();
    } catch (error) {
      say(ui.roundMessage, reason(error), "fail");
    }
  }

  async function voidRound(event) {
    event.preventDefault();
    const why = ui.reason.value.trim();
    if (!why) {
      say(ui.voidMessage, t("dealer.void.why"), "fail");
      ui.reason.setAttribute("aria-invalid", "true");
      ui.reason.focus();
      return;
    }
    ui.reason.removeAttribute("aria-invalid");
    try {
      await post(`/api/rounds/${st.round.id}/void`, { reason: why });
      ui.reason.value = "";
      say(ui.voidMessage, t("dealer.void.done", { round: st.round.id }), "done");
    } catch (error) {
      say(ui.voidMessage, reason(error), "fail");
    }
  }

  const socket = new TableSocket(tableId, {
    onSnapshot(message) {
      st.table = message.table;
      st.seats = message.table.seated || {};
      if (!built) build();
      const round = message.round ? new RoundState(message.round) : null;
      if (st.round && round && round.id !== st.round.id && st.round.over) st.previous = st.round;
      st.round = round;
      refreshNeeds();
      refreshShoe();
    },
    onEvents(message) {
      const last = message.events[message.events.length - 1];
      if (last && typeof last.at === "number") { // the server's clock, as the table page estimates it
        const sample = Date.now() / 1000 - last.at;
        st.offset = st.offset === null ? sample : Math.min(st.offset, sample);
      }
      const first = message.events[0];
      if (st.round && message.round_id === st.round.id) {
        if (!st.round.applyAll(message.events)) {
          socket.resync();
          return;
        }
      } else if (first && first.kind === "round-opened" && first.seq === 0) {
        if (st.round) st.previous = st.round;
        st.round = new RoundState({ id: message.round_id, game: first.game, nonce: first.nonce, mode: first.mode, server_seed_hash: first.server_seed_hash, events: message.events });
        if (built) say(ui.roundMessage, "");
      } else {
        socket.resync();
        return;
      }
      const kinds = new Set(message.events.map((e) => e.kind));
      if (kinds.has("betting-closed") || kinds.has("card-dealt") || kinds.has("round-opened")) refreshNeeds();
      else draw();
      if (kinds.has("round-settled") || kinds.has("round-voided")) refreshShoe();
    },
    onSeats(message) {
      st.seats = message.seats;
      draw();
    },
    onClosed() {
      st.closed = true;
      draw();
    },
    onStatus(state, detail) {
      st.connection = [state, detail];
      if (ui.conn) {
        ui.conn.textContent = connection(state, detail);
        ui.conn.dataset.state = state;
      }
    },
  });

  function build() {
    built = true;
    const tb = st.table;
    ui.conn = h("span", { class: "conn", role: "status", "data-state": st.connection[0] }, connection(...st.connection));
    ui.phase = h("p", { class: "phase", "aria-live": "polite" });
    ui.close = h("button", { type: "button", class: "primary", onClick: closeBetting }, t("dealer.no_more_bets"));
    ui.countdown = h("p", { class: "countdown", role: "timer", "aria-live": "off" }); // from the moment betting opens
    ui.next = h("p", { class: "next", "aria-live": "polite", id: "next-needed" });
    ui.entry = h("input", { id: "entry", name: "entry", autocomplete: "off", spellcheck: "false", autocapitalize: "characters", "aria-describedby": "next-needed entry-hint entry-error",
      onInput: () => {
        if (readEntry(ui.entry.value, nextKind())) enter(ui.entry.value);
      } });
    ui.entryLabel = h("label", { for: "entry" }, kindName("card"));
    ui.entryError = h("p", { class: "form-error", id: "entry-error", role: "alert" });
    ui.entered = h("ol", { class: "entered", "aria-label": t("dealer.entered") });
    ui.hands = h("div", { class: "hands-area" });
    ui.bets = h("div", { class: "dealer-bets" });
    ui.settlement = h("div", { class: "settlement" });
    ui.reason = h("input", { id: "void-reason", name: "reason", maxlength: 500, autocomplete: "off", "aria-describedby": "void-message" });
    ui.roundMessage = h("p", { class: "form-message", id: "round-message", role: "alert" });
    ui.voidMessage = h("p", { class: "form-message", id: "void-message", role: "status" });
    ui.voidButton = h("button", { type: "submit", class: "danger" }, t("dealer.void.button"));
    ui.shoe = h("div", { class: "surveillance" });
    replace(main, h("section", { class: ["dealer-page", `game-${tb.game}`], "aria-labelledby": "dealer-title" },
      h("header", { class: "table-head" },
        h("h1", { id: "dealer-title" }, t("dealer.title", { game: gameName(tb.game), table: tb.id })),
        h("p", { class: "table-facts" }, h("span", {}, tb.mode === "live" ? t("dealer.mode.live") : t("dealer.mode.electronic")),
          h("span", {}, t("dealer.limits", { min: money(tb.min_bet_cents), max: money(tb.max_bet_cents) })),
          h("span", {}, tb.shoe.mode === "continuous" ? t("dealer.shoe.continuous", { cut: Math.round(tb.shoe.penetration * 100) }) : t("dealer.shoe.fresh")),
          h("a", { href: `/tables/${tb.id}`, "data-link": true }, t("dealer.players_view"))),
        ui.conn),
      h("div", { class: "dealer-grid" },
        h("section", { class: "panel entry-panel", "aria-labelledby": "d-entry" }, h("h2", { id: "d-entry" }, t("dealer.panel.entry")), ui.next,
          h("form", { class: "inline-form", onSubmit: (event) => { event.preventDefault(); enter(ui.entry.value); } },
            ui.entryLabel, ui.entry, h("button", { type: "submit" }, t("dealer.enter"))),
          h("small", { id: "entry-hint" }, pieceOf(tb.game) === "tile"
            ? t("dealer.hint.tile")
            : t("dealer.hint.card")),
          ui.entryError, ui.entered),
        h("section", { class: "panel felt-panel", "aria-labelledby": "d-table" }, h("h2", { id: "d-table" }, t("dealer.panel.layout")), ui.hands),
        h("section", { class: "panel round-panel", "aria-labelledby": "d-round" }, h("h2", { id: "d-round" }, t("dealer.panel.round")), ui.phase, ui.countdown, ui.bets, ui.close, ui.roundMessage),
        h("section", { class: "panel settle-panel", "aria-labelledby": "d-settle" }, h("h2", { id: "d-settle" }, t("dealer.panel.settle")), ui.settlement),
        h("section", { class: "panel void-panel", "aria-labelledby": "d-void" }, h("h2", { id: "d-void" }, t("dealer.panel.void")),
          h("form", { class: "inline-form", onSubmit: voidRound }, h("label", { for: "void-reason" }, t("dealer.void.reason")), ui.reason, ui.voidButton),
          h("small", {}, t("dealer.void.note")), ui.voidMessage),
        tb.shoe.mode === "continuous" ? h("section", { class: "panel shoe-panel", "aria-labelledby": "d-shoe" }, h("h2", { id: "d-shoe" }, t("dealer.panel.shoe")), ui.shoe) : null)));
  }

  function drawBets(round) {
    if (!round || !round.bets.size) {
      replace(ui.bets, h("p", { class: "quiet" }, t("dealer.no_bets")));
      return;
    }
    const bySeat = new Map();
    for (const bet of round.bets.values()) {
      const key = bet.seat ?? 0;
      if (!bySeat.has(key)) bySeat.set(key, []);
      bySeat.get(key).push(bet);
    }
    replace(ui.bets, h("table", { class: "dealer-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("dealer.col.seat")), h("th", { scope: "col" }, t("dealer.col.player")), h("th", { scope: "col" }, t("dealer.col.bets")))),
      h("tbody", {}, [...bySeat].sort((a, b) => (a[0] || 99) - (b[0] || 99)).map(([seat, bets]) => h("tr", {},
        h("th", { scope: "row" }, seat ? String(seat) : t("dealer.behind")),
        h("td", {}, [...new Set(bets.map((b) => b.player))].join(t("dealer.list_separator"))),
        h("td", {}, bets.map((b) => t("dealer.bet", { bet: betName(round.game, b.spot), amount: money(b.amount_cents) })).join(" · ")))))));
  }

  function settlementTable(rows, caption) {
    const sum = (key) => rows.reduce((total, r) => total + r[key], 0);
    const [seat, player, pay, collect, commission] = ["seat", "player", "pay", "collect", "commission"].map((c) => t(`dealer.col.${c}`));
    return h("table", { class: "dealer-table settle" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, ...[seat, player, pay, collect, commission].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-seat": r.seat ?? "behind" },
        h("th", { scope: "row", class: r.seat ? "seat-cell" : null }, r.seat ? String(r.seat) : t("dealer.behind")),
        h("td", { class: "players", "data-label": player }, [...r.players].join(t("dealer.list_separator"))),
        h("td", { class: "pay", "data-label": pay }, r.pay ? money(r.pay) : "—"),
        h("td", { class: "collect", "data-label": collect }, r.collect ? money(r.collect) : "—"),
        h("td", { class: "commission", "data-label": commission }, r.commission ? money(r.commission) : "—")))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 2 }, t("dealer.total")),
        h("td", { "data-total": "pay", "data-label": pay }, money(sum("pay"))),
        h("td", { "data-total": "collect", "data-label": collect }, money(sum("collect"))),
        h("td", { "data-total": "commission", "data-label": commission }, money(sum("commission"))))));
  }

  // A round's settlement never changes once made: it is drawn once, not again at every
  // event after it, so the table the dealer is paying from stays put (scroll, selection).
  let settlementShown = null;

  function drawSettlement(round) {
    const shown = round && round.over ? `${round.id}:${round.voided ? "voided" : "settled"}` : "none";
    if (shown === settlementShown) return;
    settlementShown = shown;
    if (!round || !round.over) {
      replace(ui.settlement, h("p", { class: "quiet" }, t("dealer.settle.waiting")));
      return;
    }
    const ended = round.settled || round.voided;
    const rows = seatSettlement(ended.payouts);
    const title = h("p", { class: "call" }, headline(round, null, null));
    if (round.voided) {
      replace(ui.settlement, title, h("p", {}, t("dealer.settle.refund", { total: money(ended.payouts.reduce((sum, p) => sum + p.stake, 0)) })));
      return;
    }
    const sides = round.settled && round.settled.result && round.settled.result.sides;
    if (sides) {  // RedGreen's first version: the engine says which seats each side works
      const mine = new Set(sides.left.seats);
      const left = rows.filter((r) => r.seat && mine.has(r.seat));
      const right = rows.filter((r) => !r.seat || !mine.has(r.seat));
      const span = (side) => ({ first: side.seats[0], last: side.seats[side.seats.length - 1] });
      replace(ui.settlement, title,
        h("div", { class: "sides" },
          h("div", { "data-side": "left" }, settlementTable(left, t("dealer.settle.left", span(sides.left)))),
          h("div", { "data-side": "right" }, settlementTable(right, t("dealer.settle.right", span(sides.right))))));
      return;
    }
    replace(ui.settlement, title, settlementTable(rows, t("dealer.settle.every_seat")));
  }

  function drawShoe() {
    if (!ui.shoe || !st.shoe) return;
    if (st.shoe.error) {
      replace(ui.shoe, h("p", { class: "fail" }, st.shoe.error));
      return;
    }
    const shoe = st.shoe;
    replace(ui.shoe,
      h("p", {}, t(shoe.cut_card_reached ? "dealer.shoe.left_cut" : "dealer.shoe.left", { n: shoe.cards_left, dealt: shoe.cards_dealt })),
      h("table", { class: "edges" },
        h("caption", {}, t("dealer.shoe.caption")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("dealer.col.bet")), h("th", { scope: "col" }, t("dealer.col.edge")))),
        h("tbody", {}, shoe.bets.map((b) => h("tr", { class: b.house_edge < 0 ? "player-edge" : null, "data-bet": b.bet },
          h("th", { scope: "row" }, betName(st.table.game, b.bet)),
          h("td", { class: "edge-cell" },
            h("span", { class: "edge" }, percent(b.house_edge), b.house_edge < 0 ? h("strong", { class: "alert" }, ` ${t("dealer.shoe.players_edge")}`) : null),
            h("span", { class: "exact" }, h("code", {}, b.house_edge_exact))))))));
  }

  function draw() {
    if (!built) return;
    const r = st.round;
    const round = shownRound();
    const phase = r ? r.phase : null;
    ui.phase.textContent = st.closed ? t("dealer.closed") : !r ? t("dealer.no_round")
      : phase !== "betting" ? t("dealer.round_phase", { round: r.id, phase: phaseName(phase) })
        : r.bets.size ? t("dealer.round_bets", { round: r.id, phase: phaseName(phase), n: r.bets.size })
          : t("dealer.round_waiting", { round: r.id, phase: phaseName(phase) });
    ui.close.disabled = !r || phase !== "betting" || !r.bets.size;
    const kind = nextKind();
    ui.entryLabel.textContent = kindName(kind);
    const dealing = r && phase === "dealing" && st.needs.length > 0;
    ui.entry.disabled = !dealing;
    const then = st.needs.slice(1, 4).map((n) => positionLabel(r ? r.game : st.table.game, n.position));
    if (st.needs.length > 4) then.push("…");
    ui.next.textContent = dealing
      ? (st.needs.length > 1
        ? t("dealer.next_then", { next: positionLabel(r.game, st.needs[0].position), then: then.join(t("dealer.list_separator")) })
        : t("dealer.next", { next: positionLabel(r.game, st.needs[0].position) }))
      : phase === "betting" ? t("dealer.betting_open") : phase ? t("dealer.nothing_wanted") : "";
    if (dealing && document.activeElement !== ui.entry && (document.activeElement === document.body || document.activeElement === ui.close)) ui.entry.focus();
    const entered = r ? r.events.filter((e) => e.kind === "card-dealt") : [];
    replace(ui.entered, entered.map((e) => h("li", {}, t("dealer.entered_item", { position: positionLabel(r.game, e.position), item: e.item }))));
    replace(ui.hands, drawHands(st.table.game, round, { you: null, seats: st.seats, mySeat: null, faceShown: st.faceShown, backShown: st.backShown, peekCards: null }));
    drawBets(r);
    drawSettlement(round);
    ui.voidButton.disabled = !r || r.over || !r.bets.size;
  }

  /** The betting countdown players see, from the moment betting opens, on the server's clock. */
  function tick() {
    const r = st.round;
    const due = built && r && !st.closed && r.phase === "betting" ? r.deadline() : null;
    if (!built) return;
    ui.countdown.textContent = due === null ? "" : t("dealer.closes_in", { n: Math.ceil(Math.max(0, due - (Date.now() / 1000 - (st.offset ?? 0)))) });
  }

  socket.start();
  ticker = setInterval(tick, 250);
  return () => {
    clearInterval(ticker);
    socket.stop();
  };
}
