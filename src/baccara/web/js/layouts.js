// Each game's layout: its bet spots, how its hands are laid on the felt, and how a
// round's outcome reads.

import { dieSvg, handScore, itemSvg, parseTile } from "./cards.js";
import { h, titleCase } from "./dom.js";
import { bonusNote, mainWord, points as pointsText, shownScore } from "./words.js";

/**
 * Each game's facts by id, as GET /api/games serves them (the registry's public facts:
 * its bet spots, hands, seats a side, what it deals and how its felt lies). The pages
 * know no game by name: main.js learns these once, before the first page is drawn.
 */
const FACTS = new Map();

export function learnGames(all) {
  for (const game of all || []) FACTS.set(game.id, game);
}

/** The facts of `game`, or null for a game the casino has not described. */
export function factsOf(game) {
  return FACTS.get(game) || null;
}

export function spotsOf(game) {
  const facts = factsOf(game);
  return facts && facts.spots ? facts.spots : [];
}

export function betName(game, bet) {
  const spot = spotsOf(game).find((s) => s.bet === bet);
  return spot ? spot.name : titleCase(bet.replace(/-/g, " "));
}

/** The game's name, or its id when the casino has not described it. */
export function gameName(game) {
  const facts = factsOf(game);
  return facts ? facts.name : game;
}

/** What one dealt position holds: "card" or "tile". */
export function pieceOf(game) {
  const facts = factsOf(game);
  return facts && facts.piece ? facts.piece : "card";
}

/** The game's hands with their names, in the order shown; for a game not described, the round's. */
export function handsOf(game, round = null) {
  const facts = factsOf(game);
  if (facts && facts.hands) return facts.hands;
  return (round ? round.handNames() : []).map((hand) => ({ hand, name: titleCase(hand) }));
}

export function handName(game, hand) {
  const found = handsOf(game).find((h) => h.hand === hand);
  return found ? found.name : titleCase(hand);
}

/** "Banker", "Red or Green", "A, B or C": a list of bets as a sentence names them. */
export function orList(names) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names.join("");
}

/** "0.95 to 1", "3 to 2", "8 to 1". */
export function paysText(pays) {
  if (Number.isInteger(pays)) return `${pays} to 1`;
  for (const d of [2, 4]) if (Number.isInteger(pays * d)) return `${pays * d} to ${d}`;
  return `${pays} to 1`;
}

/** What a spot pays, read from the exact analysis of the game (GET /api/games). */
export function spotPays(gameInfo, bet) {
  const analysis = gameInfo && gameInfo.bets.find((b) => b.bet === bet);
  if (!analysis) return "";
  const wins = analysis.outcomes.filter((o) => o.pays > 0);
  if (!wins.length) return "";
  const plain = wins.find((o) => o.name === "win") || wins[wins.length - 1];
  const best = wins.reduce((a, b) => (b.pays > a.pays ? b : a));
  if (best.pays > plain.pays) return `${paysText(plain.pays)} · up to ${paysText(best.pays)}`;
  return paysText(plain.pays);
}

// --- drawing hands --------------------------------------------------------------------

function slot(kind) {
  return h("span", { class: ["slot", `slot-${kind}`], "aria-hidden": "true" });
}

/** The drawing of one dealt position, animated the first time it shows its face. */
function piece(round, position, item, ctx, extra = "") {
  const squeezed = ctx.squeezed ? ctx.squeezed(round, position, item ?? null, extra) : null; // bent up by a squeezer
  if (squeezed) return squeezed;
  const key = `${round.id}:${position}`;
  let cls = extra;
  if (item !== null && item !== undefined) {
    if (!ctx.faceShown.has(key)) cls += " reveal";
    ctx.faceShown.add(key);
  } else if (!ctx.backShown.has(key)) {
    cls += " deal-in";
    ctx.backShown.add(key);
  }
  return itemSvg(pieceOf(round.game), position, item ?? null, cls.trim());
}

function cardsOf(round, hand, ctx, size, extraFor = () => "") {
  const cards = round ? round.hand(hand) : [];
  const out = cards.map((c, i) => piece(round, c.position, c.item, ctx, extraFor(i)));
  while (out.length < size) out.push(slot(round ? pieceOf(round.game) : "card"));
  return out;
}

function scoredHands(game, round, ctx) {
  const box = (hand, label) => {
    const cards = round ? round.hand(hand) : [];
    const score = shownScore(cards, handScore); // none from one card alone: a lone 8 is no natural
    const winner = round && round.settled && round.settled.result.winner;
    return h("section", { class: ["hand", `hand-${hand}`, winner === hand ? "won" : null, winner === "tie" ? "tied" : null], "aria-label": label, "data-hand": hand },
      h("h3", {}, label, score !== null ? h("span", { class: "score", "data-score": String(score) }, String(score)) : null),
      h("div", { class: "cards" }, cardsOf(round, hand, ctx, 2, (i) => (i === 2 ? "third" : ""))));
  };
  return h("div", { class: ["hands", `hands-${game}`, "felt-scored-hands"] }, handsOf(game, round).map((hand) => box(hand.hand, hand.name)));
}

function setHands(game, round, ctx) {
  const box = (hand, label) => {
    const set = round && round.handsSet[hand];
    const winner = round && round.settled && round.settled.result.winner;
    const notes = [];
    let cards;
    if (set) {
      const unused = round.hand(hand);
      const position = (code) => {
        const i = unused.findIndex((c) => c.item === code);
        return i >= 0 ? unused.splice(i, 1)[0].position : `${hand}.x`;
      };
      cards = [
        h("span", { class: "front", "aria-label": "Front" }, piece(round, position(set.front), set.front, ctx)),
        h("span", { class: "divider", "aria-hidden": "true" }, "|"),
        h("span", { class: "back", "aria-label": "Back" }, set.back.map((code) => piece(round, position(code), code, ctx))),
      ];
      notes.push(h("p", { class: "house-way", "data-rule": set.rule }, `House way: ${set.rule}`));
    } else {
      const peekCards = ctx.peekCards && ctx.peekCards.hand === hand ? ctx.peekCards.cards : null;
      if (peekCards && round && round.phase === "peek") {
        cards = peekCards.map((code, i) => (ctx.squeezed && ctx.squeezed(round, `${hand}.${i}`, null, "peeked")) || itemSvg(pieceOf(round.game), `${hand}.${i}`, code, "peeked"));
        notes.push(h("p", { class: "peek-note", "data-peek": "mine" }, "Only you see these cards"));
      } else {
        cards = cardsOf(round, hand, ctx, 3);
      }
    }
    if (round && round.peek && round.peek.hand === hand && round.phase === "peek" && round.peek.player !== ctx.you) {
      notes.push(h("p", { class: "peek-note", "data-peek": "other" }, `${round.peek.player} is looking at ${label}`));
    }
    if (round && round.chosen && round.chosen.hand === hand) {
      const why = { chosen: "the highest bettor's choice", timer: "no choice in time", "no-bettor": `no bet on ${orList(handsOf(game, round).map((h) => h.name))}` }[round.chosen.reason];
      notes.push(h("p", { class: "chosen-note" }, `Set first${why ? ` — ${why}` : ""}`));
    }
    return h("section", { class: ["hand", `hand-${hand}`, winner === hand ? "won" : null, winner === "push" && set ? "tied" : null], "aria-label": label, "data-hand": hand },
      h("h3", {}, label),
      h("div", { class: ["cards", set ? "set" : null] }, cards),
      notes);
  };
  return h("div", { class: ["hands", `hands-${game}`, "felt-set-hands"] }, handsOf(game, round).map((hand) => box(hand.hand, hand.name)));
}

/** Lo-Ball points: the sum of the numbers that appear exactly once in the hand. */
export function loBallPoints(codes) {
  const counts = new Map();
  for (const code of codes) for (const n of parseTile(code) || []) counts.set(n, (counts.get(n) || 0) + 1);
  let sum = 0;
  for (const [n, times] of counts) if (times === 1) sum += n;
  return sum;
}

function seatsAgainstDealer(game, round, ctx) {
  const result = round && round.settled ? round.settled.result : null;
  const tiles = (hand, label, extra = null, note = null, who = null) => {
    const cards = round ? round.hand(hand) : [];
    const visible = cards.filter((c) => c.item).map((c) => c.item);
    const points = visible.length === 3 && hand !== "exposed" ? loBallPoints(visible) : null;
    return h("section", { class: ["hand", "tiles", `hand-${hand.replace(/\d+$/, "")}`, extra], "aria-label": who ? `${label} ${who}` : label, "data-hand": hand },
      h("h3", {}, h("span", {}, label, who ? h("span", { class: "who-name" }, ` ${who}`) : null), points !== null ? h("span", { class: "score", "data-score": String(points) }, pointsText(points)) : null),
      h("div", { class: "cards" }, cardsOf(round, hand, ctx, 3)),
      note);
  };
  const seatHands = round ? round.handNames().filter((n) => n.startsWith("seat")) : [];
  const mySeat = ctx.mySeat;
  if (mySeat && !seatHands.includes(`seat${mySeat}`) && (!round || round.phase === "betting")) seatHands.push(`seat${mySeat}`);
  const seatBoxes = seatHands.map((hand) => {
    const seat = hand.slice(4);
    const name = ctx.seats[seat];
    const outcome = result && result.seats && result.seats[seat] ? result.seats[seat].main : null;
    const mine = Number(seat) === mySeat;
    return tiles(hand, `Seat ${seat}`, mine ? "mine" : null,
      outcome ? h("p", { class: ["main-outcome", outcome.startsWith("win") ? "won" : null], "data-outcome": outcome }, `Main: ${mainWord(outcome)}`) : null,
      name ? `· ${name}${mine ? " (you)" : ""}` : null);
  });
  const dice = round ? round.hand("dice") : [];
  const diceShown = dice.filter((d) => d.item).map((d) => Number(d.item));
  const diceRow = h("section", { class: "hand dice", "aria-label": "Dice", "data-hand": "dice" },
    h("h3", {}, "Dice", diceShown.length === 3 ? h("span", { class: "score", "data-score": String(diceShown.reduce((a, b) => a + b)) }, `total ${diceShown.reduce((a, b) => a + b)}`) : null),
    h("div", { class: "cards" }, dice.length ? dice.map((d) => piece(round, d.position, d.item, ctx)) : [dieSvg(null, "idle"), dieSvg(null, "idle"), dieSvg(null, "idle")]));
  const exposed = round ? round.hand("exposed") : [];
  const facts = factsOf(game);
  return h("div", { class: ["hands", `hands-${game}`, "felt-seats-against-dealer"] },
    tiles("dealer", "Dealer", "dealer"),
    seatBoxes,
    exposed.length ? tiles("exposed", "Exposed") : h("section", { class: "hand tiles hand-exposed", "aria-label": "Exposed" }, h("h3", {}, "Exposed"), h("p", { class: "quiet" }, result ? "None: the players hold 1-1 and 7-7" : "Dealt unless the players hold both 1-1 and 7-7")),
    !facts || facts.dice || dice.length ? diceRow : null);
}

/** How the felt lies, as the game's facts say; a game not described by its round's hands. */
function feltOf(game, round) {
  const facts = factsOf(game);
  if (facts && facts.felt) return facts.felt;
  const names = round ? round.handNames() : [];
  return names.some((n) => n.startsWith("seat")) ? "seats-against-dealer" : "scored-hands";
}

export function drawHands(game, round, ctx) {
  const felt = feltOf(game, round);
  if (felt === "seats-against-dealer") return seatsAgainstDealer(game, round, ctx);
  if (felt === "set-hands") return setHands(game, round, ctx);
  return scoredHands(game, round, ctx);
}

// --- how a round reads ----------------------------------------------------------------

export function headline(round, you, mySeat) {
  if (round.voided) return `Round voided: ${round.voided.reason}. Every bet is refunded.`;
  const result = round.settled.result;
  if (result.player_score !== undefined) {
    const scores = `${result.player_score} to ${result.banker_score}`;
    const natural = result.natural ? " · natural" : "";
    if (result.winner === "tie") return `Tie, ${scores}${natural}`;
    return `${titleCase(result.winner)} wins, ${result.winner === "banker" ? `${result.banker_score} to ${result.player_score}` : `${result.player_score} to ${result.banker_score}`}${natural}`;
  }
  if (result.dealer_points !== undefined) {
    const seat = mySeat && result.seats[String(mySeat)];
    const mine = seat ? ` · your ${pointsText(seat.points)}: ${mainWord(seat.main)}` : "";
    return `Dealer ${pointsText(result.dealer_points)}${mine} · dice ${result.dice.join("-")} (${result.dice_total})`;
  }
  const bonus = bonusNote(round); // only a Bonus hand that pays: "pair" beside a lost Bonus misleads
  return `${result.winner === "push" ? "Push" : `${titleCase(result.winner)} wins`}${bonus}`;
}

