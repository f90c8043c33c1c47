// The provably-fair protocol written again, in the browser, from docs/provably-fair.md:
// HMAC-SHA256 (WebCrypto) keyed with the 32 server-seed bytes over
// "{client_seed}:{nonce}:{counter}"; randbelow by rejection; Fisher–Yates; each game's
// dealing order. It shares no code with the server: it re-deals a round from its
// revealed seeds and says whether every card the log shows is the one the seeds deal,
// then settles the round again from those cards (settlement.js) and says whether the
// call and every payout are what the casino recorded and paid. A live round has no
// seeds: its cards are checked against the order the rules deal them, and settled.

import { refunds, rulesFor, settleRound, sideTotals, wagersFromLog } from "./settlement.js";

const TWO32 = 2 ** 32;
const encoder = new TextEncoder();

export function hexToBytes(hex) {
  const clean = String(hex || "").trim().toLowerCase();
  if (!/^[0-9a-f]*$/.test(clean) || clean.length % 2) throw new Error("not hex");
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The protocol's stream of 32-bit numbers, and randbelow(n) by rejection sampling. */
export class FairStream {
  static async create(seedHex, clientSeed, nonce) {
    const seed = hexToBytes(seedHex);
    if (seed.length !== 32) throw new Error("the server seed is 32 bytes (64 hex digits)");
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new FairStream(key, `${clientSeed}:${nonce}:`);
  }

  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
    this.counter = 0;
    this.words = [];
    this.rejected = 0;
  }

  async block() {
    const message = encoder.encode(`${this.prefix}${this.counter}`);
    this.counter += 1;
    const view = new DataView(await crypto.subtle.sign("HMAC", this.key, message));
    for (let k = 0; k < 32; k += 4) this.words.push(view.getUint32(k, false));
  }

  async u32() {
    if (!this.words.length) await this.block();
    return this.words.shift();
  }

  async randbelow(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO32) throw new Error(`draws are below 1 … 2**32, got ${n}`);
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const x = await this.u32();
      if (x < limit) return x % n;
      this.rejected += 1;
    }
  }
}

export async function shuffle(items, stream) {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = await stream.randbelow(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** `decks` decks in new-deck order (spades, hearts, diamonds, clubs; Ace to King), shuffled. */
export async function shoe(stream, decks) {
  const cards = [];
  for (let d = 0; d < decks; d += 1) for (const suit of "SHDC") for (const rank of RANKS) cards.push(rank + suit);
  return shuffle(cards, stream);
}

export function tileSet() {
  const tiles = [];
  for (let a = 1; a <= 7; a += 1) for (let b = a; b <= 7; b += 1) tiles.push(`${a}-${b}`);
  return tiles;
}

// --- each game's dealing order ----------------------------------------------------------

function value(code) {
  const rank = code.slice(0, -1);
  if (rank === "A") return 1;
  if (["10", "J", "Q", "K"].includes(rank)) return 0;
  return Number(rank);
}
const score = (cards) => cards.reduce((sum, c) => sum + value(c), 0) % 10;
const BANKER_DRAWS_UP_TO = { 8: 2, 9: 3, 0: 3, 1: 3, 2: 4, 3: 4, 4: 5, 5: 5, 6: 6, 7: 6 };

/** Punto Banco: Player, Banker, Player, Banker, then the tableau's third cards. */
export function puntoBancoDeal(top) {
  const next = () => top.shift();
  const player = [];
  const banker = [];
  const dealt = [];
  const give = (hand, name) => {
    const card = next();
    dealt.push([`${name}.${hand.length}`, card]);
    hand.push(card);
  };
  give(player, "player");
  give(banker, "banker");
  give(player, "player");
  give(banker, "banker");
  const p = score(player);
  const b = score(banker);
  if (p >= 8 || b >= 8) return dealt;
  let third = null;
  if (p <= 5) {
    give(player, "player");
    third = player[2];
  }
  const draws = third === null ? b <= 5 : b <= BANKER_DRAWS_UP_TO[value(third)];
  if (draws) give(banker, "banker");
  return dealt;
}

/** Lo-Ball: three tiles to the dealer, then to each seat; three exposed unless the players hold 1-1 and 7-7; three dice. */
export function loBallDeal(tiles, dice, seats) {
  const dealt = [];
  let next = 0;
  for (const hand of ["dealer", ...seats.map((seat) => `seat${seat}`)]) {
    for (let i = 0; i < 3; i += 1) dealt.push([`${hand}.${i}`, tiles[next++]]);
  }
  const held = new Set(dealt.filter(([p]) => p.startsWith("seat")).map(([, t]) => t));
  if (!(held.has("1-1") && held.has("7-7"))) {
    for (let i = 0; i < 3; i += 1) dealt.push([`exposed.${i}`, tiles[next++]]);
  }
  dice.forEach((die, i) => dealt.push([`dice.${i}`, String(die)]));
  return dealt;
}

const DECKS = { "punto-banco": 8, redgreen: 7, "redgreen-mini": 7 };

/**
 * Re-deal a round: [[position, item], …] in dealing order. `seats` are the Lo-Ball
 * seats with a bet, in seat order; `options` the table's rule options (decks).
 */
export async function redeal({ game, serverSeed, clientSeed, nonce, options = {}, seats = [] }) {
  const stream = await FairStream.create(serverSeed, clientSeed, nonce);
  if (game === "punto-banco") {
    return puntoBancoDeal(await shoe(stream, Number(options.decks || DECKS[game])));
  }
  if (game === "redgreen" || game === "redgreen-mini") {
    const top = await shoe(stream, Number(options.decks || DECKS[game]));
    return ["red", "green"].flatMap((hand, h) => [0, 1, 2].map((i) => [`${hand}.${i}`, top[3 * h + i]]));
  }
  if (game === "lo-ball") {
    const tiles = await shuffle(tileSet(), stream);
    const dice = [];
    for (let i = 0; i < 3; i += 1) dice.push((await stream.randbelow(6)) + 1);
    return loBallDeal(tiles, dice, seats);
  }
  throw new Error(`no re-deal for ${game}`);
}

/** The Lo-Ball seats dealt in: every seat with a bet standing when betting closed. */
export function seatsFromLog(events) {
  const bets = new Map();
  for (const event of events) {
    if (event.kind === "bet-placed") bets.set(event.bet_id, event.seat);
    if (event.kind === "bet-removed") bets.delete(event.bet_id);
    if (event.kind === "betting-closed") break;
  }
  return [...new Set([...bets.values()].filter(Boolean))].sort((a, b) => a - b);
}

/**
 * A live round's cards, in the order the dealer entered them, against where the rules
 * put them (the tableau's third cards, Lo-Ball's exposure rule), each a card or tile a
 * shoe can hold that many of: null when they are what a dealer could have dealt, else why
 * not, as a message's key and figures ({key, params}) for the page to word.
 */
export function dealingProblem(game, logged, seats, decks, complete = true) {
  const items = logged.map(([, item]) => item);
  const copies = new Map();
  for (const [position, item] of logged) {
    if (position.startsWith("dice.") ? !/^[1-6]$/.test(item) : game === "lo-ball" ? !/^[1-7]-[1-7]$/.test(item) : !isCard(item)) {
      return { key: game === "lo-ball" ? "not_tile" : "not_card", params: { position, item: JSON.stringify(item) } };
    }
    copies.set(item, (copies.get(item) || 0) + (position.startsWith("dice.") ? 0 : 1));
    if (copies.get(item) > (game === "lo-ball" ? 1 : decks)) return { key: "too_many_copies", params: { item } };
  }
  let expected;
  if (game === "punto-banco") {
    if (items.length < 4 && complete) return { key: "too_few_cards", params: { n: items.length } };
    expected = puntoBancoDeal([...items, ...Array(6).fill("0S")]); // padded: a card missing shows as one
  } else if (game === "lo-ball") {
    const dice = logged.filter(([p]) => p.startsWith("dice.")).map(([, d]) => d);
    expected = loBallDeal(logged.filter(([p]) => !p.startsWith("dice.")).map(([, t]) => t), [0, 1, 2].map((i) => dice[i]), seats);
  } else {
    expected = ["red", "green"].flatMap((hand, h) => [0, 1, 2].map((i) => [`${hand}.${i}`, items[3 * h + i]]));
  }
  for (let i = 0; i < Math.max(expected.length, logged.length); i += 1) {
    if (i >= logged.length) return complete ? { key: "missing", params: { position: expected[i][0] } } : null;
    const [position, item] = logged[i];
    if (i >= expected.length) return { key: "no_more", params: { position, item } };
    if (position !== expected[i][0] || item !== expected[i][1]) return { key: "out_of_order", params: { position, item, next: expected[i][0] } };
  }
  return null;
}

const isCard = (code) => /^(A|[2-9]|10|J|Q|K)[SHDC]$/.test(code);

/**
 * Two JSON values the same, leaf by leaf: [field, recorded, recomputed] for each that is
 * not. Every key of either is compared, so a field the record holds and the settlement
 * does not give differs too (the rules give nothing): nothing in it goes unchecked.
 */
function differing(recorded, recomputed, field = "") {
  const join = (key) => (field ? `${field}.${key}` : String(key));
  if (Array.isArray(recorded) && Array.isArray(recomputed) && recorded.length === recomputed.length) {
    return recomputed.flatMap((value, i) => differing(recorded[i], value, `${field}[${i}]`));
  }
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(recorded) && isObject(recomputed)) {
    const keys = [...Object.keys(recomputed), ...Object.keys(recorded).filter((key) => !(key in recomputed))];
    return keys.flatMap((key) => differing(recorded[key], recomputed[key], join(key)));
  }
  return JSON.stringify(recorded) === JSON.stringify(recomputed) ? [] : [[field, recorded, recomputed]];
}

const PAID = ["player", "seat", "spot", "stake", "result", "won", "returned", "commission"];

/**
 * The round settled again against its record: the call (the settlement event's result,
 * and the record's own `result` where it carries one), every bet's payout in the log, the
 * house's net, and the ledger's payout of each bet the record lists (`wagers`, a
 * player's history; `bets`, a round). Returns the differences, each {what, bet, field,
 * recorded, recomputed}; none when the record is what the rules pay.
 */
export function compareSettlement(record, end, settled) {
  const out = [];
  const add = (what, bet, [field, recorded, recomputed]) => out.push({ what, bet, field, recorded, recomputed });
  if (settled.result) {
    for (const d of differing(end.result, settled.result)) add("call", null, d);
    if (record.result) for (const d of differing(record.result, settled.result)) add("call", null, d);
    const net = settled.payouts.reduce((sum, p) => sum + p.stake - p.returned, 0);
    if (end.house_net !== net) add("house", null, ["house_net", end.house_net, net]);
  }
  const mine = new Map(settled.payouts.map((p) => [p.bet_id, p]));
  const logged = new Map();
  for (const p of Array.isArray(end.payouts) ? end.payouts : []) {
    if (logged.has(p && p.bet_id)) add("bet", { bet_id: p.bet_id, spot: p.spot, player: p.player }, ["paid", 2, 1]);
    logged.set(p && p.bet_id, p);
  }
  for (const p of settled.payouts) {
    const entry = logged.get(p.bet_id);
    if (!entry) add("bet", p, ["returned", undefined, p.returned]);
    else for (const name of PAID) for (const d of differing(entry[name], p[name], name)) add("bet", p, d);
  }
  for (const [id, entry] of logged) if (!mine.has(id)) add("bet", { ...entry, bet_id: id }, ["returned", entry && entry.returned, undefined]);
  for (const list of ["wagers", "bets"]) {
    for (const entry of Array.isArray(record[list]) ? record[list] : []) {
      const p = mine.get(entry && entry.bet_id);
      if (!p) {
        add("bet", { bet_id: entry.bet_id, spot: entry.bet }, ["payout_cents", entry.payout_cents, undefined]);
        continue;
      }
      const expected = { bet: p.spot, amount_cents: p.stake, payout_cents: p.returned, ...("result" in entry ? { result: p.result } : {}) };
      for (const [name, value] of Object.entries(expected)) if (entry[name] !== value) add("ledger", p, [name, entry[name], value]);
    }
  }
  return out;
}

/**
 * Verify a round record (GET /api/rounds/{id} or a history entry, once it is over):
 * the seed against its published hash, then every card-dealt event of the log against
 * the re-deal, position by position; then the round settled again from those cards and
 * its rules (`games`: GET /api/games, the defaults the casino publishes) against what
 * the record says it paid. A live round (no seeds) is checked for its dealing order
 * and settled from its recorded cards. Each reason is a message's key and its figures
 * ({key, params}), worded by the page in its reader's language.
 */
export async function verifyRound(record, games = []) {
  const events = record.events || [];
  const opened = events.find((e) => e.kind === "round-opened") || {};
  const game = record.game || opened.game;
  const nonce = record.nonce ?? opened.nonce;
  const options = opened.options || record.options || {};
  const live = !record.server_seed_hash && !opened.server_seed_hash && (record.mode || opened.mode) === "live";
  const logged = events.filter((e) => e.kind === "card-dealt");
  const seats = seatsFromLog(events);
  const voided = events.some((e) => e.kind === "round-voided"); // its deal stopped where the void came
  const out = { live, game, nonce, clientSeed: record.client_seed, checks: [] };
  let cards;
  if (live) {
    cards = new Map(logged.map((e) => [e.position, e.item]));
    const decks = Number(options.decks || (games.find((g) => g.id === game) || { rules: {} }).rules.decks || DECKS[game]);
    out.dealing = logged.some((e) => e.item === null) ? { key: "card_hidden" }
      : dealingProblem(game, logged.map((e) => [e.position, e.item]), seats, decks, !voided);
    out.checks = logged.map((e) => ({ position: e.position, logged: e.item, dealt: e.item, ok: true }));
    out.cardsOk = out.dealing === null && (logged.length > 0 || voided);
  } else {
    if (!record.server_seed) return { ...out, ok: false, reason: { key: "seed_hidden" } };
    const hash = await sha256Hex(hexToBytes(record.server_seed));
    const hashOk = hash === record.server_seed_hash && hash === (opened.server_seed_hash || hash);
    const dealt = await redeal({ game, serverSeed: record.server_seed, clientSeed: record.client_seed, nonce, options, seats });
    const expected = new Map(dealt);
    out.checks = logged.map((event) => ({
      position: event.position,
      logged: event.item,
      dealt: expected.get(event.position) ?? null,
      ok: event.item !== null && expected.get(event.position) === event.item,
    }));
    const complete = voided ? logged.length <= dealt.length : logged.length === dealt.length;
    Object.assign(out, { hashOk, hash, complete, expected: dealt });
    out.cardsOk = hashOk && complete && out.checks.every((check) => check.ok);
    cards = expected;
  }
  out.settlement = settlementCheck(record, events, game, cards, options, games);
  out.ok = out.cardsOk && out.settlement.ok;
  return out;
}

/**
 * What the round adds to the call from its table and its log, as the casino does: each
 * protecting dealer's totals (RedGreen's first version) and the hand the highest bettor
 * chose to set first (Mini RedGreen).
 */
function withTable(served, events, settled) {
  const perSide = served && served.seats_per_side;
  if (perSide) settled.result.sides = sideTotals(settled.payouts, perSide);
  const chosen = events.filter((e) => e.kind === "hand-chosen");
  if (chosen.length) settled.result.first_hand = chosen[chosen.length - 1].hand;
  return settled;
}

function settlementCheck(record, events, game, cards, options, games) {
  const ends = events.filter((e) => e.kind === "round-settled" || e.kind === "round-voided");
  if (ends.length !== 1) return { ok: false, bets: 0, reason: { key: ends.length ? "settled_twice" : "not_settled" } };
  const end = ends[0];
  const served = games.find((g) => g.id === game);
  let settled;
  let wagers = [];
  try {
    wagers = wagersFromLog(events);
    if (end.kind === "round-voided") settled = { result: null, payouts: refunds(wagers) };
    else settled = withTable(served, events, settleRound(game, cards, wagers, rulesFor(game, options, served)));
  } catch (error) {
    return { ok: false, bets: wagers.length, reason: { key: "cannot_settle", params: { reason: error.message } } };
  }
  let differences;
  try {
    differences = compareSettlement(record, end, settled);
  } catch (error) {
    return { ok: false, bets: wagers.length, reason: { key: "cannot_read", params: { reason: error.message } } };
  }
  return { ok: differences.length === 0, bets: wagers.length, voided: end.kind === "round-voided" ? end.reason : null, differences, settled };
}
