// RedGreen's and Lo-Ball's roads: pure functions of the results, oldest first (Punto
// Banco's are roads.js). gameroads.js is what the pages use; gameroadview.js draws.
//
// A RedGreen outcome: {round, winner: "red" | "green" | "push", trips: ["red"…] (the
// hands that were three of a kind), bonus: the Bonus hand's category, bonusHit}.
// A Lo-Ball outcome: {round, dealer (points), seats: [{seat, points, main}], won, lost,
// winBonus, playBonus, result: "players" | "dealer" | "split", lo, hi ("held" |
// "exposed" | "unseen"), dice: [a, b, c], diceTotal, diceCall: "lo" | "hi" | "triple"}.

// --- RedGreen --------------------------------------------------------------------------

/** The Bonus hands the shipped paytable pays: three of a kind and up. */
export const BONUS_PAYS = new Set([
  "royal_flush", "straight_flush", "five_of_a_kind", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
]);

const THREE = "three of a kind";

export function redGreenOutcome(result, roundId = null) {
  const trips = ["red", "green"].filter((hand) => result[hand] && result[hand].rule === THREE);
  const bonus = result.bonus_category || null;
  return { round: roundId, winner: result.winner, trips, bonus, bonusHit: BONUS_PAYS.has(bonus) };
}

/** "R G P R" (a * after a letter: three of a kind, a + : a Bonus hit) → outcomes, for tests. */
export function parseRedGreen(text) {
  const names = { R: "red", G: "green", P: "push" };
  return text.trim().split(/\s+/).filter(Boolean).map((token) => {
    const winner = names[token[0].toUpperCase()];
    const trips = token.includes("*") ? [winner === "green" ? "green" : "red"] : [];
    const bonusHit = token.includes("+");
    return { round: null, winner, trips, bonus: bonusHit ? "flush" : "high_card", bonusHit };
  });
}

/**
 * RedGreen's big road as logical columns, each a streak of Red or of Green. A push takes
 * no cell: it is counted on the cell before it (pushes before the first decision on the
 * first cell, as `pushesBefore`). A cell is marked `trips` when its round, or a push
 * counted on it, had a three of a kind.
 */
export function redGreenBigRoad(outcomes) {
  const columns = [];
  let pushesBefore = 0;
  let tripsBefore = false;
  for (const outcome of outcomes) {
    const trips = outcome.trips.length > 0;
    if (outcome.winner === "push") {
      const last = columns.at(-1);
      if (last) {
        last.at(-1).pushes += 1;
        last.at(-1).trips ||= trips;
      } else {
        pushesBefore += 1;
        tripsBefore ||= trips;
      }
      continue;
    }
    const entry = { winner: outcome.winner, pushes: 0, pushesBefore: 0, trips };
    const last = columns.at(-1);
    if (last && last[0].winner === outcome.winner) last.push(entry);
    else {
      if (!columns.length) {
        entry.pushesBefore = pushesBefore;
        entry.trips ||= tripsBefore;
      }
      columns.push([entry]);
    }
  }
  return columns;
}

/** The counts beside RedGreen's roads. */
export function redGreenStatistics(outcomes) {
  const count = (predicate) => outcomes.filter(predicate).length;
  const stats = {
    rounds: outcomes.length,
    red: count((o) => o.winner === "red"),
    green: count((o) => o.winner === "green"),
    push: count((o) => o.winner === "push"),
    trips: count((o) => o.trips.length > 0),
    bonus: count((o) => o.bonusHit),
    longest: { red: 0, green: 0 },
  };
  for (const column of redGreenBigRoad(outcomes)) {
    stats.longest[column[0].winner] = Math.max(stats.longest[column[0].winner], column.length);
  }
  return stats;
}

// --- Lo-Ball ---------------------------------------------------------------------------

const WON = new Set(["win", "win-bonus"]);

/** How a Lo-Card (1-1) or Hi-Card (7-7) round went, as the result tells it: "held" when
 * no tile was exposed (players held both 1-1 and 7-7), "exposed" when the tile was among
 * the three turned up (the bet pushes), "unseen" when it was not (a player may hold it;
 * else the dealer holds it or it stayed in the stack). */
function tileCall(result, tile) {
  const exposed = result.exposed || [];
  if (!exposed.length) return "held";
  return exposed.includes(tile) ? "exposed" : "unseen";
}

/** Dice-Lo wins on a total of 4 to 10, Dice-Hi on 11 to 17; a triple loses both. */
export function diceCall(dice) {
  if (dice.length === 3 && dice[0] === dice[1] && dice[1] === dice[2]) return "triple";
  return dice.reduce((a, b) => a + b, 0) <= 10 ? "lo" : "hi";
}

export function loBallOutcome(result, roundId = null) {
  const seats = Object.entries(result.seats || {})
    .map(([seat, s]) => ({ seat: Number(seat), points: s.points, main: s.main }))
    .sort((a, b) => a.seat - b.seat);
  const won = seats.filter((s) => WON.has(s.main)).length;
  const dice = (result.dice || []).map(Number);
  return {
    round: roundId,
    dealer: result.dealer_points,
    seats,
    won,
    lost: seats.length - won,
    playBonus: seats.filter((s) => s.main === "play-bonus").length,
    winBonus: seats.filter((s) => s.main === "win-bonus").length,
    result: !seats.length ? "dealer" : won === seats.length ? "players" : won === 0 ? "dealer" : "split",
    lo: tileCall(result, "1-1"),
    hi: tileCall(result, "7-7"),
    dice,
    diceTotal: dice.reduce((a, b) => a + b, 0),
    diceCall: diceCall(dice),
  };
}

/** The counts beside Lo-Ball's roads. */
export function loBallStatistics(outcomes) {
  const count = (predicate) => outcomes.filter(predicate).length;
  const seats = outcomes.reduce((n, o) => n + o.seats.length, 0);
  return {
    rounds: outcomes.length,
    dealerPoints: outcomes.length ? outcomes.reduce((n, o) => n + o.dealer, 0) / outcomes.length : null,
    players: count((o) => o.result === "players"),
    split: count((o) => o.result === "split"),
    dealer: count((o) => o.result === "dealer"),
    hands: seats,
    handsWon: outcomes.reduce((n, o) => n + o.won, 0),
    winBonus: outcomes.reduce((n, o) => n + o.winBonus, 0),
    playBonus: outcomes.reduce((n, o) => n + o.playBonus, 0),
    loExposed: count((o) => o.lo === "exposed"),
    hiExposed: count((o) => o.hi === "exposed"),
    bothHeld: count((o) => o.lo === "held"),
    diceLo: count((o) => o.diceCall === "lo"),
    diceHi: count((o) => o.diceCall === "hi"),
    triple: count((o) => o.diceCall === "triple"),
  };
}
