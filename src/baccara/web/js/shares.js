// The other players' bets as each spot's share of their total, in whole percent that add
// up to 100 (Banker 62 % · Player 31 % · Tie 7 %), as live tables show the crowd's bets.

/**
 * Whole percentages of `cents` (spot → integer cents) by the largest-remainder method:
 * each spot gets the floor of its exact share, and the points left over go one each to
 * the largest remainders (a tie to the larger amount, then to the spot listed first), so
 * the shares add up to exactly 100. A spot with nothing on it gets 0; with nothing on
 * any spot, every share is 0.
 */
export function shares(cents) {
  const entries = Object.entries(cents).map(([spot, amount], index) => ({ spot, amount: Math.max(0, amount || 0), index }));
  const total = entries.reduce((sum, e) => sum + e.amount, 0);
  const out = {};
  if (total === 0) {
    for (const e of entries) out[e.spot] = 0;
    return out;
  }
  for (const e of entries) {
    // Integers throughout: 100 × a stake stays far below 2^53 for any table's limits.
    e.share = Math.floor((100 * e.amount) / total);
    e.rest = (100 * e.amount) % total;
  }
  let left = 100 - entries.reduce((sum, e) => sum + e.share, 0);
  const order = [...entries].sort((a, b) => b.rest - a.rest || b.amount - a.amount || a.index - b.index);
  for (const e of order) {
    if (left <= 0) break;
    if (e.rest === 0) continue;
    e.share += 1;
    left -= 1;
  }
  for (const e of entries) out[e.spot] = e.share;
  return out;
}
