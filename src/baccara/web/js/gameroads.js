// The roads of every game, as the pages use them: which games keep roads, a table's
// round records turned into outcomes, the table page's scoreboard and the lobby's
// miniature. Punto Banco's roads are roads.js (drawn by roadview.js); RedGreen's and
// Lo-Ball's are gameroadlogic.js (drawn by gameroadview.js).

import { loBallOutcome, redGreenOutcome } from "./gameroadlogic.js";
import { miniRoad, scoreboardOf } from "./gameroadview.js";
import { factsOf } from "./layouts.js";
import { outcomeOf as puntoBancoOutcome } from "./roads.js";

export * from "./gameroadlogic.js";

/** The ways a felt lies whose roads this page draws: Player and Banker scored (Punto
 * Banco's roads), two hands set (RedGreen's), seats against the dealer (Lo-Ball's). */
const KINDS = new Set(["scored-hands", "set-hands", "seats-against-dealer"]);

/** Which roads a game draws: how its felt lies (its facts), or null for none. */
export function kindOf(game) {
  const facts = factsOf(game);
  return facts && KINDS.has(facts.felt) ? facts.felt : null;
}

/** Whether the game's tables keep roads: the registry's fact (GET /api/games), for a game
 * whose roads this page can draw. */
export function keepsRoads(game) {
  return kindOf(game) !== null && Boolean(factsOf(game).roads);
}

// --- what the pages use ----------------------------------------------------------------

/** One round's outcome from its record ({round_id, result}, as GET …/rounds gives it, or
 * a round-settled event's result with its round id), or null for a voided round. */
export function outcomeFor(game, round) {
  const result = round && round.result;
  if (!result) return null;
  const id = round.round_id ?? round.round ?? null;
  const kind = kindOf(game);
  if (kind === "scored-hands") return result.winner ? puntoBancoOutcome(result, id) : null;
  if (kind === "set-hands") return result.winner ? redGreenOutcome(result, id) : null;
  if (kind === "seats-against-dealer") return typeof result.dealer_points === "number" ? loBallOutcome(result, id) : null;
  return null;
}

/** A table's round records (oldest first) → the outcomes its roads draw, voided rounds left out. */
export function outcomesFor(game, rounds) {
  return (rounds || []).map((round) => outcomeFor(game, round)).filter(Boolean);
}

/** The table page's scoreboard (a DOM node) of a game's outcomes. */
export function scoreboardFor(game, outcomes) {
  return scoreboardOf(kindOf(game), outcomes);
}

/** The lobby's miniature (a DOM node) of a game's last outcomes: Punto Banco's big road,
 * RedGreen's and Lo-Ball's last rounds. */
export function miniRoadFor(game, outcomes) {
  return miniRoad(kindOf(game), outcomes);
}
