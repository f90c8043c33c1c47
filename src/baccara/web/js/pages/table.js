// A table: the felt, the cards as they are dealt and turned, chips and bet spots, the
// countdown, the result — all driven by the table's WebSocket (no polling). And the
// player's protections as the server applies them: the reality check's dialog, a loss
// limit's or a self-exclusion's refusal.

import { ApiError, del, get, games, placeBet, post } from "../api.js";
import { openModal } from "../dialog.js";
import { chipClass, chipLabel, chipStack, chipsFor, limitChips, limitsText } from "../chips.js";
import { dateTime, h, money, replace, signed } from "../dom.js";
import { betName, callLine, drawHands, factsOf, handName, headline, lineText, linesPays, pieceOf, spotPays, spotsOf, tableName, voidReason } from "../layouts.js";
import { firstLine } from "../coupterms.js";
import { resultFacts } from "../settlement.js";
import { TableSocket } from "../live.js";
import { collapsed, moreTables, sharedRealityCheck } from "../tiles.js";
import { RoundState } from "../round.js";
import { TableSqueeze, squeezeText } from "../squeezeplay.js";
import { t } from "../i18n.js";
import { foldButton } from "../resultfold.js";
import { announce } from "../announce.js";
import { heard } from "../hear.js";
import { countdown, play, result as playResult } from "../sound.js";
import { refusal, resultWord } from "../words.js";
import { limitsOf, mergedPayouts, planDouble, planRebet, planUndo, standingText } from "../betplan.js";
import { shares } from "../shares.js";
import { announceVoid, missedRound, refundLine, showTableGone, watcherControls } from "../states.js";
import { keepsRoads as gameKeepsRoads, outcomeFor, outcomesFor, scoreboardFor } from "../gameroads.js";
import { onSession, session, setBalance } from "../session.js";


/** What a reality check says: how long the session has lasted and its net result. */
export function realityText(minutes, netCents) {
  if (typeof minutes !== "number") return t("table.reality.due");
  return t("table.reality.text", { time: playTime(minutes), net: signed(netCents) });
}

/** A length of play in words: "0 min", "12 min", "1 h 05 min". */
export function playTime(minutes) {
  const whole = Math.max(0, Math.floor(minutes));
  if (whole < 60) return t("table.duration.minutes", { minutes: whole });
  return t("table.duration.hours", { hours: Math.floor(whole / 60), minutes: String(whole % 60).padStart(2, "0") });
}

export function mount(main, [id], { navigate, compact = false, prefix = "" } = {}) {
  const tableId = Number(id);
  if (!(Number.isSafeInteger(tableId) && tableId >= 1 && tableId <= 2 ** 31 - 1)) { // no table has it: the casino refuses it outright
    showTableGone(main, id, "missing");
    return () => {};
  }
  const at = (name) => `${prefix}${name}`; // ids of its own: several tables can share a page
  const me = session.user ? session.user.username : null;
  const st = {
    table: null,
    round: null,
    previous: null,
    seats: {},
    chip: null,
    offset: null,
    peekCards: null,
    faceShown: new Set(),
    backShown: new Set(),
    outcomes: null,
    roadsRetry: null, // the roads' next try after a failed fetch
    roadsFailures: 0, // failed fetches of the roads in a row: the retries space out
    unmounted: false, // the page has been left: nothing more to fetch
    closed: false,
    ready: new Set(),
    connection: "connecting",
    connectionDetail: "",
    reality: null, // the reality check's dialog while it waits for an answer
    excludedUntil: null,
    busy: false, // a Rebet or a Clear under way: one at a time
  };
  const rebetKey = `baccara.rebet.${me}.${tableId}`;
  const ui = {};
  let built = false;
  const squeezes = new TableSqueeze({ // the squeeze: cards bent up by the squeezer, backs bending for everyone else
    tableId, me, send: (text) => socket.send(text), redraw: () => draw(), failed: (error) => failed(error, ""), faceShown: st.faceShown,
  });
  let ticker = null;

  replace(main, h("section", { class: "panel loading", "aria-busy": "true" }, h("p", {}, t("table.joining"))));

  // --- clocks and helpers -------------------------------------------------------------

  const serverNow = () => Date.now() / 1000 - (st.offset ?? 0);
  const sampleClock = (events) => {
    const last = events[events.length - 1];
    if (!last || typeof last.at !== "number") return;
    const sample = Date.now() / 1000 - last.at;
    st.offset = st.offset === null ? sample : Math.min(st.offset, sample);
  };
  const mySeat = () => {
    const found = Object.entries(st.seats).find(([, name]) => name === me);
    return found ? Number(found[0]) : null;
  };
  const game = () => st.table.game;
  const keepsRoads = () => gameKeepsRoads(game());
  const bettingOpen = () => Boolean(me && st.round && st.round.phase === "betting" && !st.closed); // a watcher never bets
  const shownRound = () => {
    const r = st.round;
    if (r && (r.bets.size > 0 || r.phase !== "betting")) return r;
    return st.previous || r;
  };
  /** A refusal, shown on the felt above the spots (never over them), led by what was refused. */
  const failed = (error, lead = "bet") => {
    if (error instanceof ApiError && error.code === "reality_check") {
      realityFromServer();
      return;
    }
    if (error instanceof ApiError && (error.code === "loss_limit" || error.code === "self_excluded")) {
      notice(refusal(error, game()), error.code, error.code === "loss_limit" ? lead : null);
      if (error.code === "self_excluded") {
        st.excludedUntil = st.excludedUntil || true;
        draw();
      }
      return;
    }
    notice(error instanceof ApiError ? refusal(error, game()) : t("table.unreachable"), "refused", lead);
  };
  /** The previous round's bets at this table, one per spot: what Rebet places again. */
  const lastBets = () => {
    try {
      const stored = JSON.parse(localStorage.getItem(rebetKey) || "[]");
      return Array.isArray(stored) ? stored.filter((b) => b && typeof b.spot === "string" && Number.isInteger(b.amount_cents) && b.amount_cents > 0) : [];
    } catch {
      return [];
    }
  };

  // --- the player's protections -------------------------------------------------------

  /** A refusal that stays on the table until the next bet is taken: the limit's room left,
   * an exclusion, a bet or a rebet the table could not take. */
  function notice(text, kind, lead = null) {
    if (!built) return;
    const first = lead ?? ({ self_excluded: "excluded", reality_check: "paused" }[kind] || "bet"); // a table.lead.* key, "" for none
    const body = text ? text.replace(/[.。]$/, "") : "";
    ui.notice.textContent = body ? t(`table.lead.${first || "none"}`, { text: first ? body : body[0].toUpperCase() + body.slice(1) }) : "";
    ui.notice.dataset.kind = kind || "";
    ui.notice.hidden = !text;
  }

  /** A table call ("Place your bets", "No more bets", "Bet accepted"): shown on the felt for
   * a moment, and read out to screen readers by the page's one polite live region. */
  function say(text) {
    announce(compact && st.table ? t("table.say_which", { name: tableName(st.table), id: tableId, text }) : text); // which of the screen's tables
    if (!built) return;
    ui.callout.textContent = text;
    ui.callout.hidden = false;
    clearTimeout(st.calloutTimer);
    st.calloutTimer = setTimeout(() => { ui.callout.hidden = true; }, 2500);
  }

  /** The cards as they turn, the result and the player's payout, said to screen readers. */
  function hear(text) {
    if (text) announce(compact && st.table ? t("table.say_which", { name: tableName(st.table), id: tableId, text }) : text);
  }

  /** Why the table stood a player up (the reason of a stood-up event), as the page says it. */
  const STOOD_UP = {
    "sat-out": () => t("table.stood_up.sat-out"),
    away: () => t("table.stood_up.away"),
  };

  /** The table stood this player up: say why, until they take a seat again (the button is back). */
  function stoodUp(event) {
    if (event.player !== me || mySeat() !== null) return;
    notice(t("table.stood_up.again", { why: STOOD_UP[event.reason] ? STOOD_UP[event.reason]() : t("table.stood_up.default") }), "stood_up", "");
  }

  /** A bet was taken: a refusal shown before it no longer holds (a protection's does). */
  function clearRefusal() {
    if (["loss_limit", "refused"].includes(ui.notice.dataset.kind)) notice("", "");
  }

  function openRealityCheck(minutes, netCents) {
    if (st.reality) {
      st.reality.summary.textContent = realityText(minutes, netCents);
      return;
    }
    const shared = sharedRealityCheck(recheckReality); // another table of the screen asks it already
    if (shared) {
      st.reality = shared;
      notice(t("table.reality.answer"), "reality_check");
      if (built) draw();
      return;
    }
    const summary = h("p", { class: "reality-summary", id: at("reality-summary") }, realityText(minutes, netCents));
    const error = h("p", { class: "form-error", role: "alert" });
    const buttons = [
      h("button", { type: "button", class: "primary", onClick: async () => {
        buttons.forEach((b) => { b.disabled = true; });
        try {
          await post("/api/me/reality-check/continue");
          closeRealityCheck();
          draw();
        } catch (failure) {
          error.textContent = failure instanceof ApiError ? refusal(failure, game()) : t("table.unreachable_sentence");
          buttons.forEach((b) => { b.disabled = false; });
        }
      } }, t("table.reality.continue")),
      h("button", { type: "button", onClick: () => {
        closeRealityCheck();
        if (navigate) navigate("/");
      } }, t("table.reality.leave")),
    ];
    const modal = openModal({
      id: at("reality-check"), title: t("table.reality.title"), required: true, className: "modal-reality",
      body: [summary, h("p", { class: "quiet" }, t("table.reality.help")), error],
      actions: buttons,
    });
    modal.dialog.dataset.minutes = typeof minutes === "number" ? String(minutes) : "";
    modal.dialog.dataset.net = typeof netCents === "number" ? String(netCents) : "";
    st.reality = { ...modal, summary };
    notice(t("table.reality.answer"), "reality_check");
    if (built) draw();
  }

  function closeRealityCheck() {
    if (!st.reality) return;
    const { close } = st.reality;
    st.reality = null;
    close();
    if (built && ui.notice.dataset.kind === "reality_check") notice("", "");
  }

  /** The reality check this table waited on, another table's, has closed: is it still due? */
  async function recheckReality() {
    closeRealityCheck();
    try {
      const mine = await get("/api/me/protections");
      if (mine.reality_check_due && mine.session) openRealityCheck(mine.session.minutes, mine.session.net_cents);
    } catch {
      /* the server still refuses a bet while the check waits */
    }
    draw();
  }

  /** The bet was refused for a reality check the page had not heard of: ask the server where the session stands. */
  async function realityFromServer() {
    try {
      const mine = await get("/api/me/protections");
      openRealityCheck(mine.session ? mine.session.minutes : null, mine.session ? mine.session.net_cents : null);
    } catch {
      openRealityCheck(null, null);
    }
  }

  /** On arrival: a reality check already waiting for an answer, or an exclusion in force. */
  async function loadProtections() {
    try {
      const mine = await get("/api/me/protections");
      if (mine.self_excluded_until) {
        st.excludedUntil = mine.self_excluded_until;
        notice(t("table.excluded_until", { until: dateTime(mine.self_excluded_until) }), "self_excluded");
      }
      if (mine.reality_check_due && mine.session) openRealityCheck(mine.session.minutes, mine.session.net_cents);
      draw();
    } catch {
      /* the server still refuses what it must */
    }
  }

  // --- actions ------------------------------------------------------------------------

  async function ensureSeat() {
    if (mySeat() !== null) return;
    const free = Object.keys(st.seats).length < st.table.seats;
    const facts = factsOf(game());
    if (!free && facts && !facts.seat_required) return; // a game that takes bets from behind (Punto Banco)
    // One seat asked for however fast the clicks come: a double-click's second chip waits
    // for the first's seat instead of asking again (and losing its bet to "already sits").
    st.seating ??= post(`/api/tables/${tableId}/seat`, {}).then((answer) => {
      st.seats = { ...st.seats, [String(answer.seat)]: me };
      if (ui.notice.dataset.kind === "stood_up") notice("", ""); // seated again, as Take a seat does
      draw();
    }).finally(() => { st.seating = null; });
    await st.seating;
  }

  async function bet(spot, cents = st.chip) {
    if (!bettingOpen()) return;
    try {
      await ensureSeat();
      const answer = await placeBet(tableId, spot, cents);
      setBalance(answer.balance_cents);
      clearRefusal();
      play("chip");
      say(t("table.bet_accepted"));
    } catch (error) {
      failed(error);
    }
  }

  /** Take back bets, newest first (what is left stays within the limits); false if one is refused. */
  async function takeBack(betIds, lead) {
    for (const betId of betIds) {
      try {
        const answer = await del(`/api/tables/${tableId}/bets/${betId}`);
        setBalance(answer.balance_cents);
      } catch (error) {
        if (lead) failed(error, lead);
        return false;
      }
    }
    return true;
  }

  async function clearBets() {
    if (!bettingOpen() || st.busy) return;
    st.busy = true;
    draw();
    try {
      const mine = st.round.betsOf(me).map((b) => b.bet_id).reverse();
      if (await takeBack(mine, "clear")) clearRefusal();
    } finally {
      st.busy = false;
      draw();
    }
  }

  /** What Undo, Double and Rebet plan from (betplan.js): the round's limits, my bets on it
   * (oldest first), how many I placed (taken back or not: the cap counts them), spot names. */
  const planning = () => {
    const r = st.round;
    const placed = r.events.filter((e) => e.kind === "bet-placed" && e.player === me).length;
    return { limits: limitsOf(r.opened), mine: r.betsOf(me), placed, name: (spot) => betName(game(), spot) };
  };

  /**
   * Place a plan's bets, each with its own Idempotency-Key: all of them or none. If the
   * casino refuses one part way (a loss limit, betting closing), what was placed is taken
   * back; what cannot be (betting closed between) is said to stand, in money.
   */
  async function placeAll(bets, lead) {
    st.busy = true;
    draw();
    const placed = [];
    try {
      await ensureSeat();
      for (const item of bets) {
        const answer = await placeBet(tableId, item.spot, item.amount_cents);
        placed.push({ ...item, betId: answer.bet_id });
        setBalance(answer.balance_cents);
      }
      clearRefusal();
      play("chip");
      say(bets.length > 1 ? t("table.bets_accepted") : t("table.bet_accepted"));
    } catch (error) {
      const stood = [];
      for (const item of placed.reverse()) if (!(await takeBack([item.betId], null))) stood.unshift(item);
      failed(error, lead);
      const standing = standingText(stood, (spot) => betName(game(), spot));
      if (standing) notice(ui.notice.hidden ? standing : t("table.two_sentences", { first: ui.notice.textContent, second: standing }), "refused", "");
    } finally {
      st.busy = false;
      draw();
    }
  }

  /** Rebet: the last round's bets again, checked against the limits and the balance first. */
  async function rebet() {
    if (!bettingOpen() || st.busy) return;
    const { limits, mine, placed, name } = planning();
    const plan = planRebet(lastBets(), mine, limits, session.balance, placed, st.table.bets, name);
    if (plan.refusal) notice(plan.refusal, "refused", "");
    else await placeAll(plan.bets, "rebet");
  }

  /** Double: every bet of the round placed again, so each spot holds twice as much. */
  async function double() {
    if (!bettingOpen() || st.busy) return;
    const { limits, mine, placed, name } = planning();
    const plan = planDouble(mine, limits, session.balance, placed, name);
    if (plan.refusal) notice(plan.refusal, "refused", "");
    else await placeAll(plan.bets, "double");
  }

  /** Undo: take back the last chip placed this round. */
  async function undo() {
    if (!bettingOpen() || st.busy) return;
    const { limits, mine, name } = planning();
    const plan = planUndo(mine, limits, name);
    if (plan.refusal) {
      notice(plan.refusal, "refused", "");
      return;
    }
    st.busy = true;
    draw();
    try {
      if (await takeBack([plan.betId], "undo")) clearRefusal();
    } finally {
      st.busy = false;
      draw();
    }
  }

  async function deal() {
    if (!st.round) return;
    try {
      await post(`/api/tables/${tableId}/deal`);
      st.ready.add(st.round.id);
      draw();
    } catch (error) {
      failed(error, "deal");
    }
  }

  async function sit(seat = null) {
    try {
      const answer = await post(`/api/tables/${tableId}/seat`, seat ? { seat } : {});
      st.seats = { ...st.seats, [String(answer.seat)]: me };
      if (ui.notice.dataset.kind === "stood_up") notice("", "");
      draw();
    } catch (error) {
      failed(error, "seat");
    }
  }

  async function leave() {
    try {
      await del(`/api/tables/${tableId}/seat`);
      const seats = { ...st.seats };
      for (const [seat, name] of Object.entries(seats)) if (name === me) delete seats[seat];
      st.seats = seats;
      draw();
    } catch (error) {
      failed(error, "seat_kept");
    }
  }

  async function fetchPeek() {
    const round = st.round;
    try {
      const answer = await get(`/api/rounds/${round.id}/peek`);
      if (st.round === round) {
        st.peekCards = answer;
        draw();
      }
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) failed(error, "");
    }
  }

  async function handBack() {
    try {
      await post(`/api/rounds/${st.round.id}/peek/done`);
    } catch (error) {
      failed(error, "");
    }
  }

  async function choose(hand) {
    try {
      await post(`/api/rounds/${st.round.id}/choose`, { hand });
    } catch (error) {
      failed(error, "");
    }
  }

  /**
   * The roads from the table's last 200 rounds. Until they first come the area says they
   * are loading. A fetch that fails for a passing reason (the network, the casino busy:
   * no answer or a 5xx) is tried again, 3 s later and then less often, up to every 30 s,
   * so the roads never stay blank until the next snapshot; a refusal (4xx: the table
   * gone, the player signed out) is not, the socket saying why.
   */
  async function loadRoads() {
    if (!keepsRoads() || st.unmounted) return;
    clearTimeout(st.roadsRetry);
    if (!st.outcomes) drawRoads();
    try {
      const rows = await get(`/api/tables/${tableId}/rounds?limit=200`);
      st.roadsFailures = 0;
      st.outcomes = outcomesFor(game(), rows);
      drawRoads();
    } catch (error) {
      const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
      if (st.unmounted || refused) return;
      clearTimeout(st.roadsRetry); // two snapshots' fetches failing leave one retry
      st.roadsFailures += 1;
      st.roadsRetry = setTimeout(loadRoads, Math.min(30_000, 3000 * 2 ** (st.roadsFailures - 1)));
    }
  }

  async function loadPrevious() {
    try {
      const rows = await get(`/api/tables/${tableId}/rounds?limit=1`);
      if (!rows.length || st.previous) return;
      const data = await get(`/api/rounds/${rows[0].round_id}`);
      if (!st.previous) {
        st.previous = new RoundState(data);
        for (const position of st.previous.slots.keys()) st.faceShown.add(`${data.id}:${position}`);
        for (const event of st.previous.events) if (event.kind === "stood-up") stoodUp(event);
        draw();
      }
    } catch {
      /* nothing to show yet */
    }
  }

  // --- the socket ---------------------------------------------------------------------

  const socket = new TableSocket(tableId, {
    onSnapshot(message) {
      st.table = message.table;
      st.seats = message.table.seated || {};
      setBalance(message.balance_cents);
      if (!built) {
        build();
        if (me) loadProtections();
      }
      const round = message.round ? new RoundState(message.round) : null;
      if (st.round && round && round.id !== st.round.id && !st.round.over) caughtUp(st.round);
      if (st.round && round && round.id !== st.round.id && st.round.over) st.previous = st.round;
      st.round = round;
      st.peekCards = null;
      if (round) {
        for (const [position, slot] of round.slots) if (slot.faceUp) st.faceShown.add(`${round.id}:${position}`);
        if (round.peek && round.phase === "peek" && round.peek.player === me) fetchPeek();
        if (round.peeked && round.peeked.player === me && round.peeked.cards) st.peekCards = { hand: round.peeked.hand, cards: round.peeked.cards };
        for (const event of round.events) if (event.kind === "stood-up") stoodUp(event);
        if (me && round.phase === "betting" && round.bets.size === 0 && !st.previous) loadPrevious(); // a watcher may not read a round: the roads show its result
      }
      loadRoads();
      draw();
    },
    onEvents(message) {
      sampleClock(message.events);
      const first = message.events[0];
      if (st.round && message.round_id === st.round.id) {
        if (!st.round.applyAll(message.events)) {
          socket.resync();
          return;
        }
      } else if (first && first.kind === "round-opened" && first.seq === 0) {
        if (st.round) st.previous = st.round;
        st.round = new RoundState({
          id: message.round_id, game: first.game, nonce: first.nonce, mode: first.mode,
          server_seed_hash: first.server_seed_hash, events: message.events,
        });
        st.peekCards = null;
      } else {
        socket.resync();
        return;
      }
      for (const event of message.events) react(event, message.round_id);
      draw();
    },
    onSeats(message) {
      st.seats = message.seats;
      draw();
    },
    onBalance(message) {
      setBalance(message.balance_cents);
    },
    onBend(message) {
      squeezes.bent(message);
    },
    onRefused(message) {
      squeezes.refused(message);
    },
    onRealityCheck(message) {
      openRealityCheck(message.minutes, message.net_cents);
    },
    onClosed() {
      st.closed = true;
      if (built) draw();
      else replace(main, h("section", { class: "panel" }, h("h1", {}, t("table.closed_title")), h("a", { href: "/", "data-link": true }, t("table.back_to_lobby"))));
    },
    onGone(why) {
      if (built) socket.handlers.onClosed();
      else showTableGone(main, tableId, why);
    },
    onStatus(state, detail) {
      if (st.missing && state === "reconnecting" && !built) { // the table is not there: stop asking
        socket.stop();
        showTableGone(main, tableId, "missing");
        return;
      }
      st.connection = state;
      st.connectionDetail = detail;
      if (built) drawConnection();
      else if (state === "closed" && detail) replace(main, h("section", { class: "panel refused-table", role: "alert" }, t("table.cannot_open", { detail }))); // too many open at once
    },
  });

  /** The round shown when the socket dropped ended while the page was away (voided on a
   * restart, or played out): show how it ended, and say what a void gave back. */
  async function caughtUp(round) {
    const past = await missedRound(round, me);
    if (!past || (st.previous && st.previous.id > past.id)) return;
    st.previous = past;
    announceVoid(past, me);
    draw();
  }

  function react(event, roundId) {
    hear(heard(st.round, event, me, mySeat()));
    if (event.kind === "round-voided") announceVoid(st.round, me);
    if (event.kind === "stood-up") {
      const seats = { ...st.seats };
      if (seats[String(event.seat)] === event.player) delete seats[String(event.seat)];
      st.seats = seats;
      stoodUp(event);
    }
    if (event.kind === "peek-offered" && event.player === me) fetchPeek();
    if (event.kind === "peeked" && event.player === me && event.cards) st.peekCards = { hand: event.hand, cards: event.cards };
    if (event.kind === "betting-window" && event.until !== null && !st.round.events.some((e) => e.kind === "betting-window" && e.seq < event.seq && e.until !== null)) {
      play("bets-open");
      say(t("table.place_bets"));
    }
    if (event.kind === "card-dealt") play("card");
    if ((event.kind === "card-dealt" && event.face_up && event.item !== null) || event.kind === "card-exposed") play("flip");
    if (event.kind === "round-settled") playResult(mergedPayouts(st.round.payoutsOf(me)).reduce((net, p) => net + p.returned - p.stake, 0));
    if (event.kind === "betting-closed") {
      play("bets-closed");
      say(t("table.no_more_bets"));
      const totals = st.round.totals(me);
      const mine = Object.keys(totals).filter((spot) => totals[spot] > 0).map((spot) => ({ spot, amount_cents: totals[spot] }));
      if (me && mine.length) localStorage.setItem(rebetKey, JSON.stringify(mine));
    }
    if (event.kind === "round-settled" && keepsRoads() && st.outcomes) {
      if (!st.outcomes.some((o) => o.round === roundId)) {
        const outcome = outcomeFor(game(), { round_id: roundId, result: event.result });
        if (outcome) st.outcomes.push(outcome);
        drawRoads();
      }
    }
  }

  // --- the page -----------------------------------------------------------------------

  function build() {
    built = true;
    const tb = st.table;
    const chips = chipsFor(tb.min_bet_cents, tb.max_bet_cents, tb.bet_step_cents || 1);
    st.chip = chips[0];
    ui.conn = h("span", { class: "conn", role: "status" });
    ui.phase = h("p", { class: "phase", "aria-live": "polite" });
    ui.countdown = h("span", { class: "countdown", role: "timer", "aria-live": "off" });
    ui.bar = h("span", { class: "bar-fill" });
    ui.hands = h("div", { class: "hands-area" });
    ui.decision = h("div", { class: "decision", "aria-live": "polite" });
    ui.result = h("section", { class: "result", "aria-labelledby": compact ? `${at("result-title")} ${at("table-title")}` : at("result-title"), hidden: true }); // several tables: each result named by its table too
    ui.notice = h("p", { class: "notice", id: at("table-notice"), role: "alert", hidden: true });
    ui.spots = new Map();
    ui.sideBets = new Map(((tb.pays && tb.pays.sidebets) || []).map((side) => [side.id, side]));
    const spotRows = {};
    // The game's spots as its facts lay them out, under a row of the table's own side bets
    // (its answer's spots): "side", above the game's rows, which keep their numbers and looks.
    const sideSpots = (tb.spots || []).filter((spot) => ui.sideBets.has(spot.bet));
    for (const spot of [...sideSpots, ...spotsOf(tb.game)]) {
      const mine = h("span", { class: "stake mine", id: at(`stake-${spot.bet}`), "aria-hidden": "true" });
      const others = h("span", { class: "stake others", id: at(`others-${spot.bet}`), "aria-hidden": "true" });
      const pays = h("span", { class: "pays", id: at(`pays-${spot.bet}`), "aria-hidden": "true" });
      const button = h("button", {
        type: "button", class: ["spot", `spot-${spot.bet}`], "data-bet": spot.bet, "data-badge": t("table.spot.win_badge"), // named by its label, as shown (WCAG 2.5.3); the rest describes it
        "aria-describedby": [`pays-${spot.bet}`, `stake-${spot.bet}`, `others-${spot.bet}`].map(at).join(" "),
        onClick: () => bet(spot.bet),
      }, h("span", { class: "spot-name" }, betName(tb.game, spot.bet)), pays, h("span", { class: "chips-on", "aria-hidden": "true" }), mine, others);
      ui.spots.set(spot.bet, { button, mine, others, pays });
      const side = ui.sideBets.get(spot.bet);
      if (side) {
        button.classList.add("side-bet");
        pays.textContent = linesPays(side.lines);
        button.title = side.lines.map((line) => lineText(tb.game, line)).join("\n");
      }
      (spotRows[side ? "side" : spot.row] ||= []).push(button);
    }
    ui.chips = h("fieldset", { class: "chips" },
      h("legend", {}, t("table.chip")),
      chips.map((cents, i) => h("label", { class: "chip", "data-cents": cents },
        h("input", { type: "radio", name: `chip-${tableId}`, value: String(cents), checked: i === 0, "aria-label": t("table.chip_named", { amount: money(cents) }),
          onChange: (event) => { st.chip = Number(event.target.value); } }),
        h("span", { class: ["chip-face", chipClass(cents)], "aria-hidden": "true" }, chipLabel(cents)))));
    ui.undo = h("button", { type: "button", class: "action", onClick: undo, title: t("table.undo_title") }, t("table.undo"));
    ui.double = h("button", { type: "button", class: "action", onClick: double, title: t("table.double_title") }, t("table.double"));
    ui.callout = h("p", { class: "callout", "aria-hidden": "true", hidden: true }); // said by the live region
    ui.rebet = h("button", { type: "button", class: "action", onClick: rebet }, t("table.rebet"));
    ui.clear = h("button", { type: "button", class: "action", onClick: clearBets }, t("table.clear"));
    ui.deal = h("button", { type: "button", class: "action primary", onClick: deal }, t("table.deal"));
    ui.sit = h("button", { type: "button", class: "action", onClick: () => sit() }, t("table.take_seat"));
    ui.seatTag = h("span", { class: "action seat-tag", hidden: true }); // in Take a seat's place once seated
    ui.total = h("p", { class: "my-total", "aria-live": "polite" });
    ui.seats = h("div", { class: "seats" });
    ui.bets = h("ul", { class: "table-bets", "aria-label": t("table.bets_label"), tabindex: "0" }); // scrolls past two bettors: keys scroll it too
    ui.roundInfo = h("div", { class: "round-info" });
    ui.roads = h("div", { class: "roads-area" });
    const live = tb.mode === "live";
    replace(main, h("section", { class: ["table-page", `game-${tb.game}`, compact && "compact"], "aria-labelledby": at("table-title") },
      h("header", { class: "table-head" },
        h(compact ? "h2" : "h1", { id: at("table-title") }, tableName(tb)),
        h("p", { class: "table-facts" },
          h("span", {}, t("table.number", { id: tb.id })), h("span", {}, live ? t("table.live_dealer") : t("table.electronic")),
          h("span", { "data-fact": "limits" }, t("table.limits_short", { min: money(tb.min_bet_cents), max: money(tb.max_bet_cents) })),
          h("a", { href: `/rules/${tb.game}?table=${tb.id}`, "data-link": true }, t("table.rules")),
          h("a", { href: "/history", "data-link": true }, t("table.my_rounds")),
          moreTables(tb.id, compact)),
        ui.conn),
      h("div", { class: "table-grid" },
        h("div", { class: "felt" },
          h("div", { class: "status-bar" }, ui.phase, ui.countdown, h("span", { class: "bar", "aria-hidden": "true" }, ui.bar)),
          h("div", { class: "stage" }, h("h2", { class: "visually-hidden" }, t("a11y.cards")), ui.hands, ui.decision, ui.result, ui.callout), // the result over the cards: nothing below moves
          ui.notice,
          h("div", { class: "spots", role: "group", "aria-label": t("table.spots_label") },
            Object.keys(spotRows).sort((a, b) => (a === "side" ? -1 : b === "side" ? 1 : a - b)).map((row) => h("div", { class: ["spot-row", `row-${row}`] }, spotRows[row]))),
          me ? h("div", { class: "controls" }, ui.chips,
            h("div", { class: "actions" }, h("span", { class: "seat-slot" }, ui.sit, ui.seatTag), ui.undo, ui.double, ui.rebet, ui.clear, ui.deal)) : watcherControls(tableId),
          ui.total),
        collapsed(compact, t("table.seats_and_bets"), h("aside", { class: "side" },
          h("section", { class: "side-panel", "aria-labelledby": at("seats-title") }, h("h2", { id: at("seats-title") }, t("table.seats")), ui.seats),
          h("section", { class: "side-panel", "aria-labelledby": at("bets-title") }, h("h2", { id: at("bets-title") }, t("table.bets_this_round")), ui.bets),
          h("section", { class: "side-panel", "aria-labelledby": at("round-title") }, h("h2", { id: at("round-title") }, t("table.this_round")), ui.roundInfo),
          paysPanel(tb)))),
      keepsRoads() ? collapsed(compact, t("table.roads"), ui.roads) : ui.roads));
    // What each main spot pays under this table's rules: a table of the game's defaults at
    // once from GET /api/games (the page has it already); one with rules of its own (a
    // commission, a rule set's lines) from their exact analysis, which may take a moment
    // the first time (each spot keeps the line's room meanwhile: nothing moves).
    const showPays = (info) => {
      for (const [spot, parts] of ui.spots) if (info && !ui.sideBets.has(spot)) parts.pays.textContent = spotPays(info, spot);
    };
    const own = Object.keys(tb.options || {}).length > 0;
    (own ? get(`/api/tables/${tb.id}/rules`) : games().then((all) => all.find((g) => g.id === tb.game)))
      .then(showPays).catch(() => {});
    ticker = setInterval(tick, 250);
    drawConnection();
  }

  /** What the table's side bets and its rule set's lines pay, line by line, beside the
   * felt: a spot shows its best pay, this every line of it. None at a table without them. */
  function paysPanel(tb) {
    const ruleSet = tb.pays && tb.pays.rule_set;
    const changed = ruleSet ? [["banker", ruleSet.banker], ["player", ruleSet.player]].filter(([, lines]) => lines.length) : [];
    if (!ui.sideBets.size && !changed.length) return null;
    const lines = (list, lead = null) => h("ul", { class: "pay-lines" }, list.map((line) =>
      h("li", {}, lead ? t("table.pays.on_bet", { bet: lead, line: lineText(tb.game, line) }) : lineText(tb.game, line))));
    return h("section", { class: "side-panel table-pays", "aria-labelledby": at("pays-title") },
      h("h2", { id: at("pays-title") }, t("table.pays.title")),
      changed.length ? [h("h3", {}, tableName(tb)), changed.map(([bet, list]) => lines(list, betName(tb.game, bet)))] : null,
      [...ui.sideBets.values()].map((side) => [h("h3", { "data-bet": side.id }, betName(tb.game, side.id)), lines(side.lines)]));
  }

  function drawConnection() {
    const label = ["connecting", "live", "reconnecting", "closed"].includes(st.connection) ? t(`table.conn.${st.connection}`) : st.connection;
    ui.conn.textContent = st.connectionDetail && st.connection !== "live" ? t("table.conn.detail", { state: label, detail: st.connectionDetail }) : label;
    ui.conn.dataset.state = st.connection;
  }

  function tick() {
    const round = st.round;
    const deadline = round && !st.closed ? round.deadline() : null;
    if (deadline === null) {
      ui.countdown.textContent = "";
      ui.bar.parentElement.classList.remove("running");
      return;
    }
    const left = Math.max(0, deadline - serverNow());
    const total = round.phase === "betting" ? round.opened.betting_seconds : round.phase === "peek" ? round.opened.peek_seconds : round.phase === "squeeze" ? round.opened.squeeze_seconds || 20 : round.opened.choose_seconds;
    ui.countdown.textContent = t("table.seconds", { seconds: Math.ceil(left) });
    countdown(`${tableId}:${round.id}:${round.phase}`, left);
    ui.bar.parentElement.classList.add("running");
    ui.bar.style.width = `${Math.min(100, (100 * left) / total)}%`;
  }

  function phaseText() {
    const r = st.round;
    if (st.closed) return t("table.phase.closed");
    if (!r) return t("table.phase.waiting");
    switch (r.phase) {
      case "betting":
        if (!r.bets.size) return t("table.place_bets");
        if (st.ready.has(r.id) && r.betsOf(me).length) return t("table.phase.waiting_others");
        return t("table.phase.closes_in");
      case "dealing":
        return r.mode === "live" ? t("table.phase.dealing_live") : t("table.phase.dealing");
      case "peek":
        if (r.peek.player === me) return t("table.phase.peek_mine", { hand: handName(game(), r.peek.hand) });
        return t("games.peek.other", { player: r.peek.player, hand: handName(game(), r.peek.hand) });
      case "squeeze":
        return squeezeText(game(), squeezes.now);
      case "choosing":
        if (r.choice.player === me) return t("table.phase.choose_mine");
        return t("games.step.choice", { player: r.choice.player });
      case "revealing":
        return pieceOf(game()) === "tile" ? t("table.phase.turning_tiles") : t("table.phase.turning_cards");
      case "settled":
        return headline(r, me, mySeat());
      case "voided":
        return t("table.phase.voided", { reason: voidReason(r.voided.reason) });
      default:
        return "";
    }
  }

  function drawDecision() {
    const r = st.round;
    if (r && r.phase === "peek" && r.peek.player === me) {
      replace(ui.decision, h("div", { class: "decision-box" },
        h("p", {}, t("table.peek.backs", { hand: handName(game(), r.peek.hand) })),
        h("p", { class: "squeeze-help" }, t("squeeze.peek_help")),
        h("button", { type: "button", class: "primary", onClick: handBack }, t("table.peek.hand_back"))));
    } else if (r && r.phase === "squeeze" && squeezes.now && squeezes.now.mine) {
      replace(ui.decision, h("div", { class: "decision-box" },
        h("p", { class: "squeeze-help" }, t("squeeze.help", { hand: handName(game(), r.squeeze.hand) })),
        h("button", { type: "button", class: "primary", onClick: () => squeezes.done() }, t("squeeze.turn_all"))));
    } else if (r && r.phase === "choosing" && r.choice.player === me) {
      replace(ui.decision, h("div", { class: "decision-box" },
        h("p", {}, t("table.choose.question")),
        h("div", { class: "buttons" },
          h("button", { type: "button", class: "choose-red", onClick: () => choose("red") }, t("table.choose.first", { hand: handName(game(), "red") })),
          h("button", { type: "button", class: "choose-green", onClick: () => choose("green") }, t("table.choose.first", { hand: handName(game(), "green") })))));
    } else {
      ui.decision.replaceChildren();
    }
  }

  function drawResult(round) {
    if (!round || !round.over) {
      ui.result.hidden = true;
      ui.result.replaceChildren();
      return;
    }
    const mine = mergedPayouts(round.payoutsOf(me)); // two chips on Banker: one line
    const staked = mine.reduce((sum, p) => sum + p.stake, 0);
    const returned = mine.reduce((sum, p) => sum + p.returned, 0);
    const net = returned - staked;
    const ended = round.settled || round.voided;
    const fresh = ui.result.hidden || ui.result.dataset.roundId !== String(round.id);
    ui.result.hidden = false;
    ui.result.dataset.roundId = String(round.id);
    if (fresh) {
      // A result the player cannot see (a phone scrolled down to the spots) is brought
      // into view once, as it comes; the page is not scrolled again while it stands.
      requestAnimationFrame(() => {
        const shown = ui.result.getBoundingClientRect();
        if (shown.top < 0 || shown.top > window.innerHeight - 40) ui.result.scrollIntoView({ block: "nearest" });
      });
    }
    replace(ui.result, foldButton(ui.result),
      h("h2", { id: at("result-title") }, headline(round, me, mySeat())),
      round.settled ? h("p", { class: "call" }, callLine(round)) : null,
      mine.length
        ? h("table", { class: "payouts" },
          h("caption", {}, t("table.result.caption")),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("table.result.bet")), h("th", { scope: "col" }, t("table.result.stake")), h("th", { scope: "col" }, t("table.result.result")), h("th", { scope: "col" }, t("table.result.paid")))),
          h("tbody", {}, mine.map((p) => h("tr", { class: `result-${p.result}`, "data-stake": p.stake, "data-returned": p.returned },
            h("th", { scope: "row" }, betName(round.game, p.spot)),
            h("td", {}, money(p.stake)),
            h("td", { "data-result": p.result }, resultWord(p.result, Boolean(round.voided)), p.commission ? h("small", {}, t("table.result.commission", { amount: money(p.commission) })) : null),
            h("td", {}, money(p.returned))))))
        : h("p", { class: "quiet" }, ended && me && !round.voided ? t("table.no_bet_round") : ""),
      mine.length && !round.voided ? h("p", { class: ["net", net > 0 ? "up" : net < 0 ? "down" : "even"], "data-net": String(net), "data-staked": String(staked), "data-returned": String(returned) },
        t("table.result.net", { staked: money(staked), paid: money(returned) }), h("strong", {}, signed(net))) : null,
      refundLine(round, me));
  }

  function drawSpots(round) {
    const current = st.round;
    const mineNow = current && me ? current.totals(me) : {}; // a watcher has no bets
    const allNow = current ? current.totals() : {};
    const display = round && round.over ? round : null;
    const results = {};
    if (display) for (const p of display.payoutsOf(me)) results[p.spot] = p.result;
    const winners = new Set();
    if (display && display.settled) {
      const r = display.settled.result;
      if (r.winner) winners.add(r.winner === "push" ? "" : r.winner);
      // A side bet that wins on a flag of the call named after it (player_pair for Player Pair).
      for (const spot of ui.spots.keys()) if (r[spot.replace(/-/g, "_")] === true) winners.add(spot);
      // A side bet of the table's own that a line of its pays (Dragon 7's three-card 7 …).
      if (ui.sideBets.size && r.player && r.banker) {
        const facts = resultFacts(r);
        for (const [spot, side] of ui.sideBets) {
          const line = firstLine(side.lines, facts);
          if (line && Number(line.pays) !== 0) winners.add(spot);
        }
      }
    }
    const open = bettingOpen() && !st.reality && !st.excludedUntil;
    // The other players' bets as each spot's share of theirs, adding up to 100 %.
    const crowd = shares(Object.fromEntries([...ui.spots.keys()].map((spot) => [spot, (allNow[spot] || 0) - (mineNow[spot] || 0)])));
    for (const [spot, parts] of ui.spots) {
      const mine = mineNow[spot] || 0;
      const others = (allNow[spot] || 0) - (mineNow[spot] || 0);
      parts.mine.textContent = mine ? t("table.spot.mine", { amount: money(mine) }) : "";
      parts.others.textContent = others ? t("table.spot.others", { share: crowd[spot] }) : "";
      parts.others.title = others ? t("table.spot.others_title", { amount: money(others) }) : "";
      parts.button.disabled = !open;
      parts.button.setAttribute("aria-disabled", String(!open));
      parts.button.classList.toggle("has-bet", Boolean(mine));
      parts.button.classList.toggle("winner", winners.has(spot) && !(current && current.bets.size));
      parts.button.dataset.result = results[spot] && !(current && current.bets.size) ? results[spot] : "";
      const stack = parts.button.querySelector(".chips-on");
      if (Number(stack.dataset.cents || 0) !== mine) {
        stack.dataset.cents = String(mine);
        stack.replaceChildren(...(mine ? [chipStack(mine)] : []));
      }
    }
  }

  function drawSeats() {
    const tb = st.table;
    const seat = mySeat();
    const items = [];
    for (let n = 1; n <= tb.seats; n += 1) {
      const name = st.seats[String(n)];
      items.push(name
        ? h("li", { class: ["seat", name === me ? "mine" : "taken"], "data-seat": n }, h("span", { class: "seat-no" }, String(n)), h("span", { class: "seat-name" }, name === me ? t("games.you", { name }) : name))
        : h("li", { class: "seat free", "data-seat": n }, h("button", { type: "button", disabled: seat !== null || st.closed || !me, onClick: () => sit(n) }, h("span", { class: "visually-hidden" }, t("table.seat.sit", { seat: n })), h("span", { class: "seat-no", "aria-hidden": "true" }, String(n)), h("span", { class: "seat-name", "aria-hidden": "true" }, t("table.seat.free")))));
    }
    const facts = factsOf(tb.game);
    const perSide = facts && facts.seats_per_side && tb.seats === 2 * facts.seats_per_side ? facts.seats_per_side : null;
    const lists = perSide
      ? [h("h3", {}, t("table.seat.left", { last: perSide })), h("ul", { class: "seat-list" }, items.slice(0, perSide)), h("h3", {}, t("table.seat.right", { first: perSide + 1, last: tb.seats })), h("ul", { class: "seat-list" }, items.slice(perSide))]
      : [h("ul", { class: "seat-list" }, items)];
    const hasBets = st.round && st.round.betsOf(me).length > 0 && !st.round.over;
    replace(ui.seats, ...lists,
      seat !== null ? h("button", { type: "button", class: "link-button", disabled: hasBets, onClick: leave }, t("table.seat.leave"))
        : h("p", { class: "seat-hint quiet" }, me ? t("table.seat.hint") : t("table.seat.sign_in"))); // as tall as Leave seat: the panels below stay put
  }

  function drawBets() {
    const r = st.round && st.round.bets.size ? st.round : null;
    if (!r) {
      replace(ui.bets, h("li", { class: "quiet" }, t("table.bets_none")));
      return;
    }
    const byPlayer = new Map();
    for (const placed of r.bets.values()) {
      if (!byPlayer.has(placed.player)) byPlayer.set(placed.player, { seat: placed.seat, spots: {} });
      const entry = byPlayer.get(placed.player);
      entry.spots[placed.spot] = (entry.spots[placed.spot] || 0) + placed.amount_cents;
    }
    replace(ui.bets, [...byPlayer].map(([player, entry]) => h("li", { class: player === me ? "mine" : null, "data-player": player },
      h("span", { class: "who" }, t(entry.seat ? "table.bettor.seat" : "table.bettor.behind", { name: player === me ? t("games.you", { name: player }) : player, seat: entry.seat })),
      // Its place is kept before the bettor is ready: pressing Deal rewraps nothing.
      h("span", { class: ["ready", !r.ready.has(player) && "not-yet"] }, t("table.bettor.ready")),
      h("span", { class: "what" }, Object.entries(entry.spots).map(([spot, cents], i) => [i ? " · " : null, // a line breaks between bets, not inside one
        h("span", { class: "one-bet" }, t("table.spot_amount", { spot: betName(game(), spot), amount: money(cents) }))])))));
  }

  function drawRoundInfo() {
    const r = st.round;
    if (!r) {
      ui.roundInfo.replaceChildren();
      return;
    }
    replace(ui.roundInfo, h("dl", { class: "facts compact" },
      h("div", {}, h("dt", {}, t("table.info.round")), h("dd", {}, t("table.info.round_nonce", { id: r.id, nonce: r.nonce }))),
      r.serverSeedHash
        ? h("div", {}, h("dt", {}, t("table.info.seed_hash")), h("dd", { class: "hash", title: r.serverSeedHash }, r.serverSeedHash))
        : h("div", {}, h("dt", {}, t("table.info.dealt_by")), h("dd", {}, t("table.info.live_shoe")))),
      r.serverSeedHash ? h("p", { class: "quiet" }, t("table.info.verify_before"), h("a", { href: "/history", "data-link": true }, t("table.my_rounds")), t("table.info.verify_after")) : null);
  }

  function drawRoads() {
    if (!built || !keepsRoads()) return;
    if (!st.outcomes) {
      replace(ui.roads, h("p", { class: "quiet" }, t("table.roads_loading")));
      return;
    }
    replace(ui.roads, scoreboardFor(game(), st.outcomes));
  }

  function draw() {
    if (!built) return;
    const round = shownRound();
    const seat = mySeat();
    squeezes.update(st.round, st.peekCards);
    ui.phase.textContent = phaseText();
    replace(ui.hands, drawHands(game(), round, {
      you: me, seats: st.seats, mySeat: seat, faceShown: st.faceShown, backShown: st.backShown,
      peekCards: st.peekCards, squeezed: (r, position, item, extra) => squeezes.cardFor(r, position, item, extra),
    }));
    if (compact) { // several tables on one page: each hand named by its table too, so no two regions share a name
      for (const hand of ui.hands.querySelectorAll("section[aria-label]")) hand.setAttribute("aria-label", `${hand.getAttribute("aria-label")}, ${t("a11y.table", { id: tableId })}`);
    }
    drawDecision();
    drawResult(round && round.over ? round : null);
    drawSpots(round);
    drawSeats();
    drawBets();
    drawRoundInfo();
    const r = st.round;
    const open = bettingOpen() && !st.reality && !st.excludedUntil;
    const mine = r ? r.betsOf(me) : [];
    const last = lastBets();
    ui.sit.hidden = seat !== null;
    ui.seatTag.hidden = seat === null;
    ui.seatTag.textContent = seat !== null ? t("games.hand.seat", { seat }) : "";
    ui.sit.disabled = st.closed || Object.keys(st.seats).length >= st.table.seats;
    ui.rebet.disabled = !open || st.busy || !last.length || mine.length > 0;
    ui.rebet.title = last.length ? t("table.rebet_title", { bets: last.map((b) => t("table.spot_amount", { spot: betName(game(), b.spot), amount: money(b.amount_cents) })).join(t("games.list_separator")) }) : t("table.rebet_none");
    ui.clear.disabled = !open || st.busy || !mine.length;
    ui.undo.disabled = !open || st.busy || !mine.length;
    ui.double.disabled = !open || st.busy || !mine.length;
    ui.deal.disabled = !open || !mine.length || st.ready.has(r.id);
    st.chip = limitChips(ui.chips, session.balance, st.chip);
    const staked = mine.reduce((sum, b) => sum + b.amount_cents, 0);
    ui.total.textContent = staked ? t("table.total", { amount: money(staked) }) : open ? t("table.pick_chip", { limits: limitsText(st.table) }) : "";
    tick();
  }

  socket.start();
  get(`/api/tables/${tableId}`).catch((error) => { // the socket says which: no such table, or closed
    if (error instanceof ApiError && error.status === 404) st.missing = true;
  });
  const unlisten = onSession(() => { if (built) st.chip = limitChips(ui.chips, session.balance, st.chip); });
  return () => {
    unlisten();
    squeezes.stop();
    socket.stop();
    clearInterval(ticker);
    clearTimeout(st.calloutTimer);
    st.unmounted = true;
    clearTimeout(st.roadsRetry);
    closeRealityCheck();
  };
}
