// Each game's settlement written again for the browser, from the rules the casino
// publishes (docs/punto-banco.md, docs/redgreen.md, docs/lo-ball.md), sharing no code
// with the server: from the cards a round dealt, its bets and its rules, call the
// round and pay every bet in whole cents, rounded down in the house's favour. Verify
// (fair.js) compares what this pays with what the casino paid. Odds are exact
// fractions of BigInts, never floating point: 19:20 on 25 cents pays 23. A Punto Banco
// table's rule set and side bets are the pay lines the casino publishes for them
// (coupterms.js reads each line's condition), so no side bet is named here.

import { coupFacts, firstLine } from "./coupterms.js";

// --- exact odds ------------------------------------------------------------------------

const ONE = { n: 1n, d: 1n };
const ZERO = { n: 0n, d: 1n };

/** A rule option as an exact fraction {n, d}: 8, 0.95, "19/20", "4.5", "1e-2". */
export function exact(value) {
  const text = typeof value === "number" ? String(value) : String(value ?? "").trim();
  const ratio = /^([+-]?\d+)\/(\d+)$/.exec(text);
  if (ratio && BigInt(ratio[2]) > 0n) return { n: BigInt(ratio[1]), d: BigInt(ratio[2]) };
  const decimal = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!decimal || !(decimal[2] || decimal[3])) throw new Error(`not a number: ${JSON.stringify(value)}`);
  const places = (decimal[3] || "").length - Number(decimal[4] || 0);
  if (Math.abs(places) > 40) throw new Error(`not a number the rules take: ${text}`);
  const digits = BigInt(`${decimal[2] || ""}${decimal[3] || ""}`) * (decimal[1] === "-" ? -1n : 1n);
  return places >= 0 ? { n: digits, d: 10n ** BigInt(places) } : { n: digits * 10n ** BigInt(-places), d: 1n };
}

/** Winnings on `stake` cents at `odds` to 1, rounded down to the cent. */
export const payout = (stake, odds) => Number((BigInt(stake) * odds.n) / odds.d);

/** Even money less a commission of `percent` %: 5 → 19/20. */
const lessPercent = (percent) => ({ n: 100n * percent.d - percent.n, d: 100n * percent.d });

/** A wager's result at `odds`; `bonus` is paid on top whatever the result (Lo-Ball's Play-bonus). */
function settle(stake, result, odds, bonus = ZERO) {
  const extra = payout(stake, bonus);
  const won = result === "win" ? payout(stake, odds) + extra : result === "push" ? extra : extra - stake;
  return { result, won, returned: stake + won };
}

/**
 * The payout as the round reports it; a win at even money less commission says what was
 * taken: even money less what was paid (a 1-cent win, paid nothing, took its cent).
 */
function paid(wager, settled, commissioned = false) {
  return {
    bet_id: wager.bet_id, player: wager.player, seat: wager.seat, spot: wager.spot, stake: wager.amount,
    result: settled.result, won: settled.won, returned: settled.returned,
    commission: commissioned && settled.result === "win" ? wager.amount - settled.won : 0,
  };
}

// --- cards -----------------------------------------------------------------------------

const RANKS = { A: 1, J: 11, Q: 12, K: 13, T: 10 };

/** "10H" → {code, rank: 10, suit: "H"}; Ace 1 … King 13. */
export function card(code) {
  const symbol = String(code).slice(0, -1).toUpperCase();
  const rank = RANKS[symbol] ?? (/^([2-9]|10)$/.test(symbol) ? Number(symbol) : NaN);
  const suit = String(code).slice(-1).toUpperCase();
  if (!rank || !"SHDC".includes(suit) || !suit) throw new Error(`not a card: ${JSON.stringify(code)}`);
  return { code, rank, suit };
}

/** The codes at `hand.0`, `hand.1`, … of a Map position → code. */
export function ordered(cards, hand) {
  const out = [];
  while (cards.has(`${hand}.${out.length}`)) out.push(cards.get(`${hand}.${out.length}`));
  return out;
}

const sign = (x) => (x > 0) - (x < 0);

const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_TEXT = [null, "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** A card as the call writes it: 10♥. */
const cardText = (c) => `${RANK_TEXT[c.rank]}${SYMBOLS[c.suit]}`;

// --- Punto Banco -----------------------------------------------------------------------

const pips = (c) => (c.rank < 10 ? c.rank : 0);
const score = (hand) => hand.reduce((sum, c) => sum + pips(c), 0) % 10;

/** A settled Punto Banco result's coup facts (coupterms.js), from the cards it lists. */
export function resultFacts(result) {
  return coupFacts(result.player.map(card), result.banker.map(card), score);
}

function puntoBanco(cards, wagers, rules) {
  const player = ordered(cards, "player").map(card);
  const banker = ordered(cards, "banker").map(card);
  if (player.length < 2 || banker.length < 2) throw new Error("each hand has at least two cards");
  const facts = coupFacts(player, banker, score);
  const [p, b] = [score(player), score(banker)];
  const winner = p > b ? "player" : b > p ? "banker" : "tie";
  const natural = score(player.slice(0, 2)) >= 8 || score(banker.slice(0, 2)) >= 8;
  const result = {
    call: `Player ${player.map(cardText).join(" ")} (${p}) · Banker ${banker.map(cardText).join(" ")} (${b})`
      + ` · ${winner}${natural ? " · natural" : ""}`,
    winner, player: player.map((c) => c.code), banker: banker.map((c) => c.code),
    player_score: p, banker_score: b, natural,
    player_pair: player[0].rank === player[1].rank, banker_pair: banker[0].rank === banker[1].rank,
  };
  const odds = { banker: lessPercent(rules.commission), player: ONE, tie: rules.tie_pays,
    "player-pair": rules.pair_pays, "banker-pair": rules.pair_pays };
  /** A line's pay: a win at its odds, or a push at 0. */
  const byLine = (line) => ({ result: line.pays.n > 0n ? "win" : "push", odds: line.pays, line: true });
  const outcome = (spot) => {
    const side = rules.sidebets.find((bet) => bet.id === spot);
    if (side) {
      const line = firstLine(side.lines, facts);
      return line ? byLine(line) : { result: "lose", odds: ZERO };
    }
    const plain = (won) => ({ result: won ? "win" : "lose", odds: odds[spot] });
    if (spot === "tie") return plain(result.winner === "tie");
    if (spot === "player-pair" || spot === "banker-pair") return plain(result[spot.replace("-", "_")]);
    if (result.winner === "tie") return { result: "push", odds: ZERO };
    if (result.winner !== spot) return plain(false);
    const line = firstLine(rules.variant[spot], facts); // EZ Baccarat's push, No-Commission's 1 to 2
    return line ? byLine(line) : plain(true);
  };
  const payouts = wagers.map((w) => {
    const { result: ended, odds: at, line } = outcome(w.spot);
    return paid(w, settle(w.amount, ended, at), w.spot === "banker" && !line && rules.commission.n !== 0n);
  });
  return { result, payouts };
}

// --- RedGreen and Mini RedGreen --------------------------------------------------------

const high = (rank) => (rank === 1 ? 14 : rank); // single cards: Ace high, 2 low

/**
 * The house way: three of a kind whole; a pair behind and the odd card in front, except
 * Aces split unless the odd card is `split_aces_unless` or better, Kings split unless it
 * is `split_kings_unless` or better; no pair: the middle card in front.
 */
export function houseWay(hand, rules) {
  const [a, b, c] = [...hand].sort((x, y) => high(y.rank) - high(x.rank));
  if (a.rank === c.rank) return { front: a, back: [b, c], rule: "three of a kind", trips: a.rank };
  if (a.rank !== b.rank && b.rank !== c.rank) return { front: b, back: [a, c], rule: "no pair: middle card in front" };
  const pairRank = b.rank;
  const pair = [a, b, c].filter((x) => x.rank === pairRank);
  const odd = [a, b, c].find((x) => x.rank !== pairRank);
  const aces = pairRank === 1 && rules.split_aces;
  const kings = pairRank === 13 && rules.split_kings;
  if ((aces && high(odd.rank) < high(rules.split_aces_unless)) || (kings && high(odd.rank) < high(rules.split_kings_unless))) {
    return { front: pair[0], back: [pair[1], odd], rule: aces ? "Aces split" : "Kings split" };
  }
  return { front: odd, back: pair, rule: aces ? "Aces kept together" : kings ? "Kings kept together" : "pair in the back" };
}

/**
 * A pair (or three of a kind) of rank `x` against one of rank `y`: +1, −1 or 0. The order
 * is the seed's cycle — A-A high … 3-3, 2-2 low, except that 2-2 beats A-A, and only A-A —
 * or, with deuces "top", 2s above every pair.
 */
export function pairBeats(x, y, deuces = "beat-aces-only") {
  if (x === y) return 0;
  if ((x === 2 || y === 2) && (deuces === "top" || x === 1 || y === 1)) return x === 2 ? 1 : -1;
  return sign(high(x) - high(y));
}

function compareBacks(red, green, deuces) {
  const [rp, gp] = [red, green].map((s) => s.back[0].rank === s.back[1].rank);
  if (rp || gp) return rp !== gp ? (rp ? 1 : -1) : pairBeats(red.back[0].rank, green.back[0].rank, deuces);
  return sign(high(red.back[0].rank) - high(green.back[0].rank)) || sign(high(red.back[1].rank) - high(green.back[1].rank));
}

/** Three of a kind beats any other hand; else front with front, back with back: two wins or a win and a tie win. */
export function callHands(red, green, deuces) {
  let total;
  if (red.trips && green.trips) total = pairBeats(red.trips, green.trips, deuces);
  else if (red.trips || green.trips) total = red.trips ? 1 : -1;
  else total = sign(sign(high(red.front.rank) - high(green.front.rank)) + compareBacks(red, green, deuces));
  return total > 0 ? "red" : total < 0 ? "green" : "push";
}

/** Poker categories from the highest down, as the paytables name them. */
export const CATEGORIES = ["royal_flush", "straight_flush", "five_of_a_kind", "four_of_a_kind", "full_house",
  "flush", "straight", "three_of_a_kind", "two_pair", "pair", "high_card"];
const strength = (category) => CATEGORIES.length - CATEGORIES.indexOf(category);

function fiveCategory(five) {
  const ranks = five.map((c) => c.rank);
  const tally = {};
  for (const r of ranks) tally[r] = (tally[r] || 0) + 1;
  const [most, next] = Object.values(tally).sort((x, y) => y - x);
  const distinct = new Set(ranks);
  const royal = [1, 10, 11, 12, 13].every((r) => distinct.has(r));
  const straight = distinct.size === 5 && (royal || Math.max(...ranks) - Math.min(...ranks) === 4);
  const byRank = most === 5 ? "five_of_a_kind" : most === 4 ? "four_of_a_kind" : most === 3 && next === 2 ? "full_house"
    : straight ? "straight" : most === 3 ? "three_of_a_kind" : most === 2 && next === 2 ? "two_pair"
      : most === 2 ? "pair" : "high_card";
  if (new Set(five.map((c) => c.suit)).size !== 1) return byRank;
  if (straight) return royal ? "royal_flush" : "straight_flush";
  return strength(byRank) > strength("flush") ? byRank : "flush"; // a multi-deck flush can be a full house
}

/** The Bonus hand: the best five of Red's and Green's six cards. */
export function bestCategory(six) {
  return six.map((_, skip) => fiveCategory(six.filter((__, i) => i !== skip)))
    .reduce((best, c) => (strength(c) > strength(best) ? c : best));
}

/** A hand as the call writes it: `K | 7 7 (pair in the back)`, `7 7 7 (face up)`. */
function settingText(set) {
  const [front, ...back] = [set.front, ...set.back].map((c) => RANK_TEXT[c.rank]);
  return set.trips ? `${front} ${back.join(" ")} (face up)` : `${front} | ${back.join(" ")} (${set.rule})`;
}

function redGreen(cards, wagers, rules) {
  const hands = ["red", "green"].map((hand) => ordered(cards, hand).map(card));
  if (hands.some((hand) => hand.length !== 3)) throw new Error("Red and Green have three cards each");
  const [red, green] = hands.map((hand) => houseWay(hand, rules));
  const category = bestCategory([...hands[0], ...hands[1]]);
  const setting = (hand, set) => ({ cards: hand.map((c) => c.code), front: set.front.code,
    back: set.back.map((c) => c.code), rule: set.rule });
  const winner = callHands(red, green, rules.deuces);
  const result = { call: `Red ${settingText(red)} · Green ${settingText(green)} · ${winner}`
    + ` · Bonus hand ${category.replace(/_/g, " ")}`,
  winner, red: setting(hands[0], red), green: setting(hands[1], green), bonus_category: category };
  const payouts = wagers.map((w) => {
    if (w.spot === "bonus") {
      const pay = rules.paytable[category];
      const outcome = pay === undefined ? "lose" : pay.n > 0n ? "win" : "push";
      return paid(w, settle(w.amount, outcome, pay || ZERO));
    }
    const outcome = result.winner === "push" ? "push" : result.winner === w.spot ? "win" : "lose";
    return paid(w, settle(w.amount, outcome, lessPercent(rules.commission)), rules.commission.n !== 0n);
  });
  return { result, payouts };
}

// --- Lo-Ball ---------------------------------------------------------------------------

/** The sum of the numbers that appear exactly once among a hand's tiles. */
export function points(tiles) {
  const counts = new Map();
  for (const tile of tiles) {
    if (!/^[1-7]-[1-7]$/.test(tile)) throw new Error(`not a tile: ${JSON.stringify(tile)}`);
    for (const n of tile.split("-").map(Number)) counts.set(n, (counts.get(n) || 0) + 1);
  }
  return [...counts].reduce((sum, [n, times]) => sum + (times === 1 ? n : 0), 0);
}

function loBall(cards, wagers, rules) {
  const seats = [...new Set(wagers.map((w) => w.seat))].filter(Boolean).sort((x, y) => x - y);
  const hand = (seat) => ordered(cards, `seat${seat}`);
  const dealer = points(ordered(cards, "dealer"));
  const exposed = ordered(cards, "exposed");
  const dice = ordered(cards, "dice").map(Number);
  if (dice.length !== 3 || seats.some((s) => hand(s).length !== 3)) throw new Error("a hand is three tiles, and three dice are rolled");
  const main = (p) => (p === 27 ? "play-bonus" : p < dealer ? (p === 0 ? "win-bonus" : "win") : "lose");
  const hands = seats.map((s) => `seat ${s} ${hand(s).join(" ")} (${points(hand(s))})`).join(" · ");
  const result = {
    call: `Dealer ${ordered(cards, "dealer").join(" ")} (${dealer}) · ${hands}`
      + ` · exposed ${exposed.join(" ") || "none"} · dice ${dice.join("-")}`,
    dealer_points: dealer,
    seats: Object.fromEntries(seats.map((s) => [String(s), { points: points(hand(s)), main: main(points(hand(s))) }])),
    exposed, dice, dice_total: dice.reduce((a, b) => a + b, 0),
  };
  const tileBet = (seat, tile) => {
    const holder = seats.find((s) => hand(s).includes(tile));
    if (holder !== undefined) return holder === seat ? "win" : "lose";
    return exposed.includes(tile) ? "push" : "lose";
  };
  const triple = new Set(dice).size === 1;
  const total = result.dice_total;
  const payouts = wagers.map((w) => {
    if (w.spot === "main") {
      const outcome = result.seats[String(w.seat)].main;
      if (outcome === "win-bonus") return paid(w, settle(w.amount, "win", rules.win_bonus_pays));
      if (outcome === "play-bonus") return paid(w, settle(w.amount, "lose", rules.win_pays, rules.play_bonus_pays));
      return paid(w, settle(w.amount, outcome, rules.win_pays));
    }
    if (w.spot === "lo-card" || w.spot === "hi-card") {
      return paid(w, settle(w.amount, tileBet(w.seat, w.spot === "lo-card" ? "1-1" : "7-7"), rules.lo_hi_pays));
    }
    const wins = !triple && (w.spot === "dice-lo" ? total >= 4 && total <= 10 : total >= 11 && total <= 17);
    return paid(w, settle(w.amount, wins ? "win" : "lose", rules.dice_pays));
  });
  return { result, payouts };
}

// --- the rules, and the round -----------------------------------------------------------

const NUMBERS = { "punto-banco": ["commission", "tie_pays", "pair_pays"], redgreen: ["commission"],
  "lo-ball": ["win_pays", "win_bonus_pays", "play_bonus_pays", "lo_hi_pays", "dice_pays"] };
const SWITCHES = { yes: true, true: true, on: true, 1: true, no: false, false: false, off: false, 0: false };
const KNOWN = { "punto-banco": ["decks", ...NUMBERS["punto-banco"], "variant", "sidebets"],
  redgreen: ["decks", "commission", "split_aces", "split_aces_unless", "split_kings", "split_kings_unless", "deuces", "paytable"],
  "lo-ball": NUMBERS["lo-ball"] };
const family = (game) => (game === "redgreen-mini" ? "redgreen" : game);

/**
 * The round's rules: its own options (the round-opened event's), over the defaults the
 * casino publishes for the game (GET /api/games: `served`), with the Bonus paytable the
 * same answer gives. An option this page does not know, or a paytable the casino does
 * not publish, is refused rather than guessed.
 */
export function rulesFor(game, options, served) {
  if (!served || !served.rules) throw new Error(`the casino publishes no rules for ${game}`);
  const given = Object.fromEntries(Object.entries(options || {}).map(([k, v]) => [k.replace(/-/g, "_"), v]));
  for (const key of Object.keys(given)) {
    if (!(KNOWN[family(game)] || []).includes(key)) throw new Error(`the round has a rule option this page does not know: ${key}`);
  }
  const chosen = { deuces: "beat-aces-only", ...served.rules, ...given };
  const rules = { ...chosen, bets: (served.bets || []).map((b) => b.bet) };
  if (game === "punto-banco") Object.assign(chosen, ruleSet(given, served, rules));
  for (const key of NUMBERS[family(game)] || []) rules[key] = exact(chosen[key]);
  if (family(game) === "redgreen") {
    for (const key of ["split_aces", "split_kings"]) {
      const value = typeof chosen[key] === "boolean" ? chosen[key] : SWITCHES[String(chosen[key]).trim().toLowerCase()];
      if (value === undefined) throw new Error(`${key} is a switch, not ${JSON.stringify(chosen[key])}`);
      rules[key] = value;
    }
    for (const key of ["split_aces_unless", "split_kings_unless"]) rules[key] = card(`${String(chosen[key]).trim()}S`).rank;
    rules.deuces = String(chosen.deuces).trim().toLowerCase();
    if (!["beat-aces-only", "top"].includes(rules.deuces)) throw new Error(`deuces is beat-aces-only or top, not ${JSON.stringify(chosen.deuces)}`);
    const name = String(chosen.paytable).trim();
    if (name !== served.rules.paytable) throw new Error(`the Bonus paytable ${JSON.stringify(name)} is not one the casino publishes`);
    const bonus = (served.bets || []).find((b) => b.bet === "bonus");
    rules.paytable = Object.fromEntries((bonus ? bonus.outcomes : [])
      .filter((o) => CATEGORIES.includes(o.name)).map((o) => [o.name, exact(o.pays)]));
  }
  return rules;
}

/**
 * A Punto Banco round's rule set and side bets, from the ids its options name and the
 * pay lines the casino publishes for each (`served.catalog`), as the table reads them: a
 * rule set brings its commission, Tie pay and side bets, each of which an option given
 * beside it overrides. Sets `rules.variant` (its Banker and Player lines) and
 * `rules.sidebets`, adds the side bets to `rules.bets`, and returns the commission and
 * Tie pay the rule set brings.
 */
function ruleSet(given, served, rules) {
  const catalog = served.catalog || { rule_sets: [], sidebets: [] };
  const find = (list, id, what) => {
    const found = list.find((item) => typeof id === "string" && item.id === id.trim());
    if (!found) throw new Error(`${what} ${JSON.stringify(id)} is not one the casino publishes`);
    return found;
  };
  const lines = (list) => (list || []).map((line) => ({ when: line.when, pays: exact(line.pays) }));
  const named = "variant" in given;
  const variant = find(catalog.rule_sets, named ? given.variant : served.rules.variant, "the rule set");
  const ids = "sidebets" in given ? sideBetIds(given.sidebets) : named ? variant.sidebets : sideBetIds(served.rules.sidebets);
  rules.variant = { banker: lines(variant.banker), player: lines(variant.player) };
  rules.sidebets = ids.map((id) => find(catalog.sidebets, id, "the side bet")).map((bet) => ({ id: bet.id, lines: lines(bet.lines) }));
  rules.bets = [...rules.bets, ...rules.sidebets.map((bet) => bet.id)];
  const brought = {};
  if (named && !("commission" in given)) brought.commission = variant.commission;
  if (named && !("tie_pays" in given) && variant.tie_pays !== null) brought.tie_pays = variant.tie_pays;
  return brought;
}

/** The `sidebets` option: a list of ids, or text of ids joined by + or commas, or none. */
function sideBetIds(value) {
  const ids = Array.isArray(value) ? value : typeof value === "string"
    ? (["", "none"].includes(value.trim()) ? [] : value.split(/[+,]/).map((id) => id.trim()))
    : null;
  if (ids === null) throw new Error(`sidebets is a list of side bet ids, not ${JSON.stringify(value)}`);
  if (new Set(ids).size !== ids.length) throw new Error(`a side bet is named twice: ${JSON.stringify(value)}`);
  return ids;
}

/** The bets standing when betting closed, in the order they were placed. */
export function wagersFromLog(events) {
  const wagers = new Map();
  for (const event of events) {
    if (event.kind === "betting-closed") break;
    if (event.kind === "bet-placed") {
      if (!Number.isSafeInteger(event.amount_cents) || event.amount_cents <= 0) throw new Error(`bet ${event.bet_id} has a stake of ${JSON.stringify(event.amount_cents)}`);
      wagers.set(event.bet_id, { bet_id: event.bet_id, player: event.player, seat: event.seat, spot: event.spot, amount: event.amount_cents });
    }
    if (event.kind === "bet-removed") wagers.delete(event.bet_id);
  }
  return [...wagers.values()];
}

const GAMES = { "punto-banco": puntoBanco, redgreen: redGreen, "lo-ball": loBall };

/**
 * Settle a round: `cards` a Map position → code (the re-deal, or a live dealer's cards),
 * `wagers` from wagersFromLog, `rules` from rulesFor. Returns the call and every payout
 * ({bet_id, player, seat, spot, stake, result, won, returned, commission}).
 */
export function settleRound(game, cards, wagers, rules) {
  const settleGame = GAMES[family(game)];
  if (!settleGame) throw new Error(`no settlement for ${game}`);
  const unknown = wagers.find((w) => !rules.bets.includes(w.spot));
  if (unknown) throw new Error(`${game} has no bet ${JSON.stringify(unknown.spot)}`);
  return settleGame(cards, wagers, rules);
}

/**
 * What each protecting dealer pays, collects and keeps as commission over the seats of
 * their side (seats 1 to `perSide` on the left, the rest on the right), as a settled
 * round records it under `sides`.
 */
export function sideTotals(payouts, perSide) {
  const side = (first) => {
    const seats = Array.from({ length: perSide }, (_, i) => first + i);
    const mine = payouts.filter((p) => seats.includes(p.seat));
    return { seats, paid: mine.reduce((sum, p) => sum + Math.max(p.won, 0), 0),
      collected: mine.reduce((sum, p) => sum - Math.min(p.won, 0), 0),
      commission: mine.reduce((sum, p) => sum + p.commission, 0) };
  };
  return { left: side(1), right: side(perSide + 1) };
}

/** What a void pays: every bet back, in full. */
export function refunds(wagers) {
  return wagers.map((w) => paid(w, { result: "push", won: 0, returned: w.amount }));
}
