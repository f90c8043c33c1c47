// The provably-fair protocol written again, in the browser, from docs/provably-fair.md:
// HMAC-SHA256 (WebCrypto) keyed with the 32 server-seed bytes over
// "{client_seed}:{nonce}:{counter}"; randbelow by rejection; Fisher–Yates; each game's
// dealing order. It shares no code with the server: it re-deals a round from its
// revealed seeds and says whether every card the log shows is the one the seeds deal.

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
    const dealt = [];
    let next = 0;
    for (const hand of ["dealer", ...seats.map((seat) => `seat${seat}`)]) {
      for (let i = 0; i < 3; i += 1) dealt.push([`${hand}.${i}`, tiles[next++]]);
    }
    const held = new Set(dealt.filter(([p]) => p.startsWith("seat")).map(([, t]) => t));
    if (!(held.has("1-1") && held.has("7-7"))) {
      for (let i = 0; i < 3; i += 1) dealt.push([`exposed.${i}`, tiles[next++]]);
    }
    for (let i = 0; i < 3; i += 1) dealt.push([`dice.${i}`, String((await stream.randbelow(6)) + 1)]);
    return dealt;
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
 * Verify a round record (GET /api/rounds/{id} or a history entry, once it is over):
 * the seed against its published hash, then every card-dealt event of the log against
 * the re-deal, position by position.
 */
export async function verifyRound(record) {
  const events = record.events || [];
  const opened = events.find((e) => e.kind === "round-opened") || {};
  const game = record.game || opened.game;
  if (!record.server_seed) return { ok: false, reason: "the server seed is revealed only when the round is over", checks: [] };
  const clientSeed = record.client_seed;
  const nonce = record.nonce ?? opened.nonce;
  const hash = await sha256Hex(hexToBytes(record.server_seed));
  const hashOk = hash === record.server_seed_hash && hash === (opened.server_seed_hash || hash);
  const dealt = await redeal({
    game, serverSeed: record.server_seed, clientSeed, nonce, options: opened.options || record.options || {}, seats: seatsFromLog(events),
  });
  const expected = new Map(dealt);
  const logged = events.filter((e) => e.kind === "card-dealt");
  const checks = logged.map((event) => ({
    position: event.position,
    logged: event.item,
    dealt: expected.get(event.position) ?? null,
    ok: event.item !== null && expected.get(event.position) === event.item,
  }));
  const complete = logged.length === dealt.length;
  const ok = hashOk && complete && checks.every((check) => check.ok);
  return { ok, hashOk, hash, complete, checks, expected: dealt, clientSeed, nonce };
}
