// What a Punto Banco side bet or rule set may ask of a coup, written again for the
// browser from the vocabulary the casino publishes (docs/punto-banco-side-bets.md):
// the coup's facts from its cards, each term read off them, and whether a pay line's
// condition holds. The casino publishes each line's condition term by term with every
// value it accepts ({ banker_total: [7], banker_cards: [3] }), so nothing here names a
// bet: a side bet is only its lines, and the first that holds pays.

/** Whose first two cards make a natural, as the `natural` term reads it. */
const NATURALS = ["none", "player", "banker", "both"];

/**
 * The facts of a coup: `player` and `banker` the hands' cards ({rank, suit}, Ace 1 …
 * King 13), `total` a hand's baccarat total.
 */
export function coupFacts(player, banker, total) {
  const natural = (hand) => total(hand.slice(0, 2)) >= 8;
  const pair = (hand) => hand[0].rank === hand[1].rank;
  const suited = (hand) => pair(hand) && hand[0].suit === hand[1].suit; // one card twice, from two decks
  return {
    player_total: total(player), banker_total: total(banker),
    player_cards: player.length, banker_cards: banker.length,
    player_natural: natural(player), banker_natural: natural(banker),
    player_pair: pair(player), banker_pair: pair(banker),
    player_suited_pair: suited(player), banker_suited_pair: suited(banker),
  };
}

const winner = (f) => (f.player_total > f.banker_total ? "player" : f.banker_total > f.player_total ? "banker" : "tie");

/** Every term a condition may use, by its name: how it is read off the facts. */
export const TERMS = {
  winner,
  margin: (f) => Math.abs(f.player_total - f.banker_total),
  player_total: (f) => f.player_total,
  banker_total: (f) => f.banker_total,
  player_cards: (f) => f.player_cards,
  banker_cards: (f) => f.banker_cards,
  cards: (f) => f.player_cards + f.banker_cards,
  natural: (f) => NATURALS[Number(f.player_natural) + 2 * Number(f.banker_natural)],
  player_pair: (f) => f.player_pair,
  banker_pair: (f) => f.banker_pair,
  player_suited_pair: (f) => f.player_suited_pair,
  banker_suited_pair: (f) => f.banker_suited_pair,
  pairs: (f) => Number(f.player_pair) + Number(f.banker_pair),
  suited_pairs: (f) => Number(f.player_suited_pair) + Number(f.banker_suited_pair),
};

/** Whether every term of `when` accepts the coup; a term this page does not know is refused, not guessed. */
export function holds(when, facts) {
  return Object.entries(when || {}).every(([name, accepted]) => {
    if (!Object.hasOwn(TERMS, name)) throw new Error(`a pay line reads a term this page does not know: ${name}`);
    if (!Array.isArray(accepted)) throw new Error(`the term ${name} lists the values it accepts, not ${JSON.stringify(accepted)}`);
    return accepted.includes(TERMS[name](facts));
  });
}

/** The first of `lines` whose condition holds of the coup, or null. */
export function firstLine(lines, facts) {
  return (lines || []).find((line) => holds(line.when, facts)) || null;
}
