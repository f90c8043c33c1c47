// Each game's layout: its bet spots, how its hands are laid on the felt, and how a
// round's outcome reads.

import { dieSvg, handScore, itemSvg, parseTile } from "./cards.js";
import { h, titleCase } from "./dom.js";
import { has, locale, t } from "./i18n.js";
import { bonusNote, categoryName, mainWord, number, points as pointsText, shownScore } from "./words.js";

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

/** The side bet `bet` as the casino publishes it for the game's tables (GET /api/games'
 * catalog: its name and pay lines), or null. */
export function sideBetOf(game, bet) {
  const facts = factsOf(game);
  const catalog = facts && facts.catalog ? facts.catalog.sidebets : [];
  return catalog.find((side) => side.id === bet) || null;
}

/**
 * The catalog's word for `key` in another language than English; null in English, where
 * the casino's own names stand (its facts name a game's bets and hands as its felt
 * prints them, which a casino may change), and for a key the catalog lacks.
 */
function translated(key) {
  return locale() !== "en" && has(key) ? t(key) : null;
}

/** A bet by the name printed on the felt, in the page's language ("banker" → "Banker", 庄);
 * a bet the catalog does not know keeps the casino's name for it. */
export function betName(game, bet) {
  const spot = spotsOf(game).find((s) => s.bet === bet) || sideBetOf(game, bet);
  const word = translated(`games.bet.${bet}`);
  if (word) return word;
  if (spot) return spot.name;
  return has(`games.bet.${bet}`) ? t(`games.bet.${bet}`) : titleCase(String(bet).replace(/-/g, " "));
}

/**
 * A table's name as the lobby and its page show it: its rule set's (EZ Baccarat) where
 * it is not its game's own, else its game's, in the page's language; a name the casino
 * gave the table otherwise stays as it is.
 */
export function tableName(table) {
  const facts = factsOf(table.game);
  const ruleSet = table.rule_set;
  if (ruleSet && facts && table.name !== facts.name) return translated(`games.rule_set.${ruleSet.id}`) || table.name;
  return !table.name || (facts && table.name === facts.name) ? gameName(table.game) : table.name;
}

/** The game's name in the page's language, or the casino's name (its id) for a game the catalog does not know. */
export function gameName(game) {
  const facts = factsOf(game);
  const word = translated(`games.name.${game}`);
  if (word) return word;
  if (facts) return facts.name;
  return has(`games.name.${game}`) ? t(`games.name.${game}`) : game;
}

/** An outcome of a bet's analysis (GET /api/games: "win", "push (exposed)", "royal_flush")
 * in words; the catalog keys it by its name with every other character an underscore. */
export function outcomeName(name) {
  const key = `games.outcome.${String(name).replace(/[^a-z0-9-]+/gi, "_").replace(/_+$/, "")}`;
  if (has(key)) return t(key);
  if (has(`words.category.${name}`)) return categoryName(name);
  return String(name).replace(/_/g, " ");
}

/** A house way's rule ("pair in the back", as a round's hand-set event names it) in words. */
export function houseRule(rule) {
  const key = `games.rule.${String(rule).replace(/[^a-z0-9]+/gi, "_").toLowerCase()}`;
  return has(key) ? t(key) : String(rule);
}

/** What one dealt position holds: "card" or "tile". */
export function pieceOf(game) {
  const facts = factsOf(game);
  return facts && facts.piece ? facts.piece : "card";
}

/** The game's hands with their names, in the order shown; for a game not described, the round's. */
export function handsOf(game, round = null) {
  const facts = factsOf(game);
  const hands = facts && facts.hands ? facts.hands : (round ? round.handNames() : []).map((hand) => ({ hand }));
  return hands.map((hand) => ({ ...hand, name: handName(game, hand.hand) }));
}

/** A hand by its name in the page's language: "banker" → "Banker", "seat3" → "Seat 3", "dice" → "Dice". */
export function handName(game, hand) {
  const facts = factsOf(game);
  const found = facts && facts.hands ? facts.hands.find((h) => h.hand === hand) : null;
  const word = translated(`games.hand.${hand}`);
  if (word) return word;
  if (found) return found.name;
  const seat = /^seat(\d+)$/.exec(hand);
  if (seat) return t("games.hand.seat", { seat: seat[1] });
  return has(`games.hand.${hand}`) ? t(`games.hand.${hand}`) : titleCase(hand);
}

/** "Banker", "Red or Green", "A, B or C": a list of bets as a sentence names them. */
export function orList(names) {
  if (names.length < 2) return names.join("");
  return t("words.list_or", { first: names.slice(0, -1).join(t("games.list_separator")), last: names[names.length - 1] });
}

/** "0.95 to 1", "3 to 2", "8 to 1". */
export function paysText(pays) {
  const odds = (a, b) => t("games.pays", { a: number(a), b: number(b) });
  if (Number.isInteger(pays)) return odds(pays, 1);
  for (const d of [2, 4]) if (Number.isInteger(pays * d)) return odds(pays * d, d);
  return odds(pays, 1);
}

/** What a spot pays, read from the exact analysis of the game (GET /api/games). */
export function spotPays(gameInfo, bet) {
  const analysis = gameInfo && gameInfo.bets.find((b) => b.bet === bet);
  if (!analysis) return "";
  const wins = analysis.outcomes.filter((o) => o.pays > 0);
  if (!wins.length) return "";
  const plain = wins.find((o) => o.name === "win") || wins[wins.length - 1];
  const best = wins.reduce((a, b) => (b.pays > a.pays ? b : a));
  if (best.pays > plain.pays) return t("games.pays_up_to", { plain: paysText(plain.pays), best: paysText(best.pays) });
  return paysText(plain.pays);
}

// --- pay lines -------------------------------------------------------------------------

/** A pay line's "to 1" as a number: "40", "0.54", "1/3". */
function lineValue(pays) {
  const [a, b] = String(pays).split("/");
  return Number(a) / (b === undefined ? 1 : Number(b));
}

/** What a side bet's spot pays, from its lines: "40 to 1", or "1 to 1 · up to 30 to 1". */
export function linesPays(lines) {
  const wins = (lines || []).map((line) => lineValue(line.pays)).filter((pays) => pays > 0);
  if (!wins.length) return "";
  const [low, high] = [Math.min(...wins), Math.max(...wins)];
  return high > low ? t("games.pays_up_to", { plain: paysText(low), best: paysText(high) }) : paysText(high);
}

/** Numbers a term accepts, as words: "7", "4 to 9", "5 or 6" (a list of them, "1, 3 or 5"). */
function numbersText(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 1) return number(sorted[0]);
  if (sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1)) return t("games.term.range", { low: number(sorted[0]), high: number(sorted[sorted.length - 1]) });
  return orList(sorted.map(number));
}

/** The `natural` term's word for the states it accepts (the words a side bet's file writes). */
const NATURAL_WORDS = { none: ["none"], player: ["player", "both"], banker: ["banker", "both"], either: ["player", "banker", "both"], both: ["both"] };

/** One term of a condition in words: "Banker wins", "Banker total 7", "no Player pair". */
function termText(game, name, accepted) {
  const hand = (side) => handName(game, side);
  if (name === "winner") {
    if (accepted.length === 1 && accepted[0] === "tie") return t("games.term.tie");
    return t("games.term.wins", { hands: orList(accepted.map((w) => (w === "tie" ? t("games.term.tie") : hand(w)))) });
  }
  if (name === "natural") {
    const word = Object.keys(NATURAL_WORDS).find((w) => NATURAL_WORDS[w].length === accepted.length && NATURAL_WORDS[w].every((s) => accepted.includes(s)));
    return t("games.term.natural", { who: word ? t(`games.term.natural_${word}`) : orList(accepted.map((s) => t(`games.term.natural_${s}`))) });
  }
  const flag = /^(player|banker)_(suited_)?pair$/.exec(name);
  if (flag) return t(`games.term.${accepted.includes(true) ? "" : "no_"}${flag[2] ? "suited_" : ""}pair`, { hand: hand(flag[1]) });
  const n = numbersText(accepted);
  const side = /^(player|banker)_(total|cards)$/.exec(name);
  if (side) return t(`games.term.hand_${side[2]}`, { hand: hand(side[1]), n });
  const one = accepted.length === 1 && accepted[0] === 1 && name.endsWith("pairs") ? "_one" : ""; // "1 hand paired"
  if (["margin", "cards", "pairs", "suited_pairs"].includes(name)) return t(`games.term.${name}${one}`, { n });
  return `${name} ${accepted.join(", ")}`;
}

/** A pay line's condition in the page's language ("Banker wins, Banker total 7, Banker 3
 * cards"), read term by term from what the casino publishes. */
export function conditionText(game, when) {
  const terms = Object.entries(when || {});
  if (!terms.length) return t("games.term.always");
  return terms.map(([name, accepted]) => termText(game, name, accepted)).join(t("games.term.separator"));
}

/** A pay line in words: "40 to 1: Banker wins, Banker total 7, Banker 3 cards"; a line
 * that pays 0 pushes. */
export function lineText(game, line) {
  const value = lineValue(line.pays);
  return t("games.term.line", { pays: value > 0 ? paysText(value) : t("games.term.push"), condition: conditionText(game, line.when) });
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
        h("span", { class: "front", "aria-label": t("games.front") }, piece(round, position(set.front), set.front, ctx)),
        h("span", { class: "divider", "aria-hidden": "true" }, "|"),
        h("span", { class: "back", "aria-label": t("games.back") }, set.back.map((code) => piece(round, position(code), code, ctx))),
      ];
      notes.push(h("p", { class: "house-way", "data-rule": set.rule }, t("games.house_way", { rule: houseRule(set.rule) })));
    } else {
      const peekCards = ctx.peekCards && ctx.peekCards.hand === hand ? ctx.peekCards.cards : null;
      if (peekCards && round && round.phase === "peek") {
        cards = peekCards.map((code, i) => (ctx.squeezed && ctx.squeezed(round, `${hand}.${i}`, null, "peeked")) || itemSvg(pieceOf(round.game), `${hand}.${i}`, code, "peeked"));
        notes.push(h("p", { class: "peek-note", "data-peek": "mine" }, t("games.peek.mine")));
      } else {
        cards = cardsOf(round, hand, ctx, 3);
      }
    }
    if (round && round.peek && round.peek.hand === hand && round.phase === "peek" && round.peek.player !== ctx.you) {
      notes.push(h("p", { class: "peek-note", "data-peek": "other" }, t("games.peek.other", { player: round.peek.player, hand: label })));
    }
    if (round && round.chosen && round.chosen.hand === hand) {
      const reason = round.chosen.reason;
      const why = reason === "no-bettor" ? t("games.chosen.no-bettor", { hands: orList(handsOf(game, round).map((h) => h.name)) })
        : has(`games.chosen.${reason}`) ? t(`games.chosen.${reason}`) : "";
      notes.push(h("p", { class: "chosen-note" }, why ? t("games.set_first_why", { why }) : t("games.set_first")));
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
    return h("section", { class: ["hand", "tiles", `hand-${hand.replace(/\d+$/, "")}`, extra], "aria-label": who ? t("games.seat_who", { seat: label, who }) : label, "data-hand": hand },
      h("h3", {}, h("span", {}, label, who ? h("span", { class: "who-name" }, ` ${t("games.seat_name", { who })}`) : null), points !== null ? h("span", { class: "score", "data-score": String(points) }, pointsText(points)) : null),
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
    return tiles(hand, handName(game, hand), mine ? "mine" : null,
      outcome ? h("p", { class: ["main-outcome", outcome.startsWith("win") ? "won" : null], "data-outcome": outcome }, t("games.main_outcome", { outcome: mainWord(outcome) })) : null,
      name ? (mine ? t("games.you", { name }) : name) : null);
  });
  const dice = round ? round.hand("dice") : [];
  const diceShown = dice.filter((d) => d.item).map((d) => Number(d.item));
  const diceRow = h("section", { class: "hand dice", "aria-label": handName(game, "dice"), "data-hand": "dice" },
    h("h3", {}, handName(game, "dice"), diceShown.length === 3 ? h("span", { class: "score", "data-score": String(diceShown.reduce((a, b) => a + b)) }, t("games.dice_total", { total: number(diceShown.reduce((a, b) => a + b)) })) : null),
    h("div", { class: "cards" }, dice.length ? dice.map((d) => piece(round, d.position, d.item, ctx)) : [dieSvg(null, "idle"), dieSvg(null, "idle"), dieSvg(null, "idle")]));
  const exposed = round ? round.hand("exposed") : [];
  const facts = factsOf(game);
  return h("div", { class: ["hands", `hands-${game}`, "felt-seats-against-dealer"] },
    tiles("dealer", handName(game, "dealer"), "dealer"),
    seatBoxes,
    exposed.length ? tiles("exposed", handName(game, "exposed")) : h("section", { class: "hand tiles hand-exposed", "aria-label": handName(game, "exposed") }, h("h3", {}, handName(game, "exposed")), h("p", { class: "quiet" }, result ? t("games.exposed.none") : t("games.exposed.unless"))),
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

/** Why a round was voided, in words: the casino's own reason for a table closed, the dealer's words for a misdeal. */
export function voidReason(reason) {
  return reason === VOID_CLOSED ? t("games.void.closed") : String(reason ?? "");
}

/** The reason the casino gives a round voided as its table closed (the server's CLOSE_VOID). */
const VOID_CLOSED = "the table was closed while betting was open: every bet is refunded";

export function headline(round, you, mySeat) {
  if (round.voided) return t("games.headline.voided", { reason: voidReason(round.voided.reason) });
  const result = round.settled.result;
  if (result.player_score !== undefined) {
    const [p, b] = [number(result.player_score), number(result.banker_score)];
    const natural = result.natural ? "_natural" : "";
    if (result.winner === "tie") return t(`games.headline.tie${natural}`, { player: p, banker: b });
    const hand = handName(round.game, result.winner);
    const [high, low] = result.winner === "banker" ? [b, p] : [p, b];
    return t(`games.headline.wins${natural}`, { hand, high, low });
  }
  if (result.dealer_points !== undefined) {
    const seat = mySeat && result.seats[String(mySeat)];
    const figures = { dealer: pointsText(result.dealer_points), dice: result.dice.join("-"), total: number(result.dice_total) };
    if (!seat) return t("games.headline.loball", figures);
    return t("games.headline.loball_mine", { ...figures, points: pointsText(seat.points), main: mainWord(seat.main) });
  }
  const bonus = bonusNote(round); // only a Bonus hand that pays: "pair" beside a lost Bonus misleads
  return `${result.winner === "push" ? t("games.headline.push") : t("games.headline.hand_wins", { hand: handName(round.game, result.winner) })}${bonus}`;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** A card as the call writes it: "10H" → 10♥, "KS" → K♠. */
const cardText = (code) => `${String(code).slice(0, -1).replace(/^T$/, "10")}${SUITS[String(code).slice(-1)] || ""}`;

/**
 * The round's call, the cards behind the headline, in the page's language. English reads
 * the casino's own call line; another language composes it from the round's cards and
 * the result's figures, so no English shows through.
 */
export function callLine(round) {
  const result = round.settled ? round.settled.result : null;
  if (!result) return "";
  return callText(round.game, result, (hand) => round.hand(hand).filter((c) => c.item).map((c) => c.item));
}

/** A settled result's call in the page's language (callLine's); `codes(hand)`, when given,
 * are the hand's dealt codes, for the hands a result does not list (Lo-Ball's tiles). */
export function callText(game, result, codes = null) {
  if (!result) return "";
  if (locale() === "en" && result.call) return result.call;
  const handCall = (hand, points) => {
    const cards = codes ? codes(hand) : [];
    return cards.length ? t("games.call.hand", { hand: handName(game, hand), cards: cards.join(" "), points })
      : t("games.call.points", { hand: handName(game, hand), points });
  };
  if (result.player_score !== undefined) {
    return t("games.call.scored", {
      player: handName(game, "player"), player_cards: (result.player || []).map(cardText).join(" "), player_score: number(result.player_score),
      banker: handName(game, "banker"), banker_cards: (result.banker || []).map(cardText).join(" "), banker_score: number(result.banker_score),
    });
  }
  if (result.dealer_points !== undefined) {
    const parts = [handCall("dealer", pointsText(result.dealer_points))];
    for (const [seat, mine] of Object.entries(result.seats || {})) parts.push(handCall(`seat${seat}`, pointsText(mine.points)));
    parts.push(result.exposed && result.exposed.length ? t("games.call.exposed", { tiles: result.exposed.join(" ") }) : t("games.call.exposed_none"));
    parts.push(t("games.call.dice", { dice: result.dice.join("-") }));
    return parts.join(" · ");
  }
  const setting = (hand) => {
    const set = result[hand];
    if (!set) return handName(game, hand);
    const front = cardText(set.front);
    const back = set.back.map(cardText).join(" ");
    return set.rule === "three of a kind" ? t("games.call.set_whole", { hand: handName(game, hand), front, back })
      : t("games.call.set", { hand: handName(game, hand), front, back, rule: houseRule(set.rule) });
  };
  const parts = ["red", "green"].filter((hand) => result[hand]).map(setting);
  if (result.bonus_category) parts.push(t("games.call.bonus_hand", { category: categoryName(result.bonus_category) }));
  return parts.join(" · ");
}
