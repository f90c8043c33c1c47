// The Punto Banco scoreboards players expect: bead plate, big road and the three
// derived roads (big eye boy, small road, cockroach pig), and the shoe's statistics.
// Pure functions of the results, oldest first; drawing is in roadview.js.
//
// An outcome is {winner: "banker" | "player" | "tie", playerPair, bankerPair, natural}.

export const ROWS = 6;

/** The outcomes of a table's rounds (GET /api/tables/{id}/rounds), voided ones left out. */
export function outcomesOf(rounds) {
  return rounds.filter((round) => round.result && round.result.winner).map((round) => outcomeOf(round.result, round.round_id));
}

export function outcomeOf(result, roundId = null) {
  return {
    round: roundId,
    winner: result.winner,
    playerPair: Boolean(result.player_pair),
    bankerPair: Boolean(result.banker_pair),
    natural: Boolean(result.natural),
    playerScore: result.player_score,
    bankerScore: result.banker_score,
  };
}

/** "B B P T" → outcomes (for tests and examples). */
export function parseSequence(text) {
  const names = { B: "banker", P: "player", T: "tie" };
  return text.trim().split(/\s+/).filter(Boolean).map((letter) => ({ winner: names[letter.toUpperCase()], playerPair: false, bankerPair: false, natural: false }));
}

/** Every round in order, top to bottom then left to right, ties included. */
export function beadPlate(outcomes, rows = ROWS) {
  return outcomes.map((outcome, i) => ({ x: Math.floor(i / rows), y: i % rows, outcome }));
}

/**
 * The big road as logical columns: a column is a streak of one winner. A tie takes no
 * cell; it is counted on the cell before it (ties before the first decision on the
 * first cell, as `tiesBefore`).
 */
export function bigRoad(outcomes) {
  const columns = [];
  let tiesBefore = 0;
  for (const outcome of outcomes) {
    if (outcome.winner === "tie") {
      if (columns.length) columns.at(-1).at(-1).ties += 1;
      else tiesBefore += 1;
      continue;
    }
    const entry = { winner: outcome.winner, ties: 0, tiesBefore: 0, playerPair: outcome.playerPair, bankerPair: outcome.bankerPair };
    const last = columns.at(-1);
    if (last && last[0].winner === outcome.winner) {
      last.push(entry);
    } else {
      if (!columns.length) entry.tiesBefore = tiesBefore;
      columns.push([entry]);
    }
  }
  return columns;
}

/**
 * A derived road from the big road's columns: k = 1 big eye boy, 2 small road,
 * 3 cockroach pig. For each big-road entry from the road's starting point:
 * - first of its column: red if the two columns before it (the one just left and the
 *   one k further left) are equally long, blue if not;
 * - further down a column: look at the column k to the left — red if it has a cell
 *   at this row, blue if it ends exactly one row above, red if it ends higher still
 *   (the "straight drop").
 * Returns "R" / "B" letters in order.
 */
export function derivedRoad(columns, k) {
  const out = [];
  for (let c = 0; c < columns.length; c += 1) {
    for (let r = 0; r < columns[c].length; r += 1) {
      if (r === 0) {
        if (c < k + 1) continue;
        out.push(columns[c - 1].length === columns[c - 1 - k].length ? "R" : "B");
      } else {
        if (c < k) continue;
        const left = columns[c - k].length;
        out.push(left > r ? "R" : left === r ? "B" : "R");
      }
    }
  }
  return out;
}

export const DERIVED = [
  { k: 1, id: "big-eye-boy" },
  { k: 2, id: "small-road" },
  { k: 3, id: "cockroach-pig" },
];

/** Letters in streaks, as a derived road is drawn: one column per run of a colour. */
export function streaks(letters) {
  const columns = [];
  for (const letter of letters) {
    const last = columns.at(-1);
    if (last && last[0] === letter) last.push(letter);
    else columns.push([letter]);
  }
  return columns;
}

/**
 * Lay logical columns out on a grid `rows` high: a streak longer than the grid (or one
 * that runs into an earlier column's tail) turns right along its last free row — the
 * dragon tail. Returns [{x, y, entry}].
 */
export function place(columns, rows = ROWS) {
  const taken = new Set();
  const cells = [];
  let start = 0;
  for (const column of columns) {
    let x = start;
    while (taken.has(`${x},0`)) x += 1;
    const columnStart = x;
    let y = 0;
    let turned = false;
    column.forEach((entry, i) => {
      if (i > 0) {
        if (!turned && y + 1 < rows && !taken.has(`${x},${y + 1}`)) y += 1;
        else {
          turned = true;
          x += 1;
        }
      }
      taken.add(`${x},${y}`);
      cells.push({ x, y, entry });
    });
    start = columnStart + 1;
  }
  return cells;
}

/** What each derived road would show next if the next coup were Banker, or Player. */
export function predictions(outcomes) {
  const next = {};
  for (const winner of ["banker", "player"]) {
    const before = bigRoad(outcomes);
    const after = bigRoad([...outcomes, { winner, playerPair: false, bankerPair: false }]);
    next[winner] = DERIVED.map(({ k }) => {
      const a = derivedRoad(before, k);
      const b = derivedRoad(after, k);
      return b.length > a.length ? b.at(-1) : null;
    });
  }
  return next;
}

/** The counts a scoreboard shows beside the roads. */
export function statistics(outcomes) {
  const count = (predicate) => outcomes.filter(predicate).length;
  const stats = {
    rounds: outcomes.length,
    banker: count((o) => o.winner === "banker"),
    player: count((o) => o.winner === "player"),
    tie: count((o) => o.winner === "tie"),
    playerPair: count((o) => o.playerPair),
    bankerPair: count((o) => o.bankerPair),
    natural: count((o) => o.natural),
    longest: { banker: 0, player: 0 },
  };
  for (const column of bigRoad(outcomes)) {
    const winner = column[0].winner;
    stats.longest[winner] = Math.max(stats.longest[winner], column.length);
  }
  return stats;
}
