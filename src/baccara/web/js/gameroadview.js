// RedGreen's and Lo-Ball's roads drawn in SVG with the counts beside them, and every
// game's miniature for the lobby. Punto Banco's scoreboard is roadview.js.

import { h, s } from "./dom.js";
import {
  loBallStatistics, redGreenBigRoad, redGreenStatistics,
} from "./gameroadlogic.js";
import { ROWS, beadPlate, bigRoad, place } from "./roads.js";
import { columnsNeeded, grid, percent, scoreboard as puntoBancoScoreboard, scroller } from "./roadview.js";

const RG_LETTER = { red: "R", green: "G", push: "P" };
const RG_NAME = { red: "Red", green: "Green", push: "Push" };
const DICE_NAME = { lo: "Lo", hi: "Hi", triple: "Triple" };
const TILE_WORDS = { held: "held", exposed: "turned up", unseen: "not up" };
const TILE_TITLES = { held: "no tile was exposed: players held both 1-1 and 7-7", exposed: "among the three tiles exposed: Lo-Card and Hi-Card push", unseen: "not among the tiles exposed" };
const points = (n) => `${n} ${n === 1 ? "point" : "points"}`;
const RESULT_WORDS = { players: "every hand won", split: "some hands won", dealer: "the dealer won" };

const stat = (name, key, value, cls = null) => h("div", { class: cls }, h("dt", {}, name), h("dd", { "data-stat": key }, value));

/** A mark on a three-of-a-kind round: a gold dot at the top right of its bead or ring. */
function tripsMark(svg, cx, cy, r) {
  svg.append(s("circle", { cx: cx + r * 0.72, cy: cy - r * 0.72, r: Math.max(2.4, r * 0.34), class: "trips-mark" }));
}

// --- RedGreen --------------------------------------------------------------------------

const rgLetters = (outcomes) => outcomes.map((o) => `${RG_LETTER[o.winner]}${o.trips.length ? "*" : ""}`).join(" ");

export function redGreenBeadPlateSvg(outcomes, minCols = 12) {
  const cell = 22;
  const cells = beadPlate(outcomes);
  const letters = rgLetters(outcomes);
  const words = outcomes.map((o) => `${RG_NAME[o.winner]}${o.trips.length ? " (three of a kind)" : ""}`).join(", ");
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, "bead-plate", `Bead plate: ${words || "no rounds yet"}`, letters);
  for (const { x, y, outcome } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2;
    svg.append(
      s("circle", { cx, cy, r, class: ["bead", `rg-${outcome.winner}`] }),
      s("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "bead-letter" }, RG_LETTER[outcome.winner]));
    if (outcome.trips.length) tripsMark(svg, cx, cy, r);
  }
  return svg;
}

export function redGreenBigRoadSvg(outcomes, minCols = 24) {
  const cell = 18;
  const columns = redGreenBigRoad(outcomes);
  const cells = place(columns);
  const letters = columns.map((column) => column.map((e) => RG_LETTER[e.winner]).join("")).join(" ");
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, "big-road", `Big road: ${letters || "no decisions yet"}`, letters);
  for (const { x, y, entry } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2.5;
    svg.append(s("circle", { cx, cy, r, class: ["ring", `rg-${entry.winner}`] }));
    const pushes = entry.pushes + entry.pushesBefore;
    if (pushes) {
      svg.append(s("path", { d: `M${cx - r} ${cy + r}L${cx + r} ${cy - r}`, class: "push-line" }));
      if (pushes > 1) svg.append(s("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", class: "push-count" }, String(pushes)));
    }
    if (entry.trips) tripsMark(svg, cx, cy, r);
  }
  return svg;
}

function redGreenScoreboard(outcomes) {
  const st = redGreenStatistics(outcomes);
  const share = (n) => `${n} · ${percent(n, st.rounds)}`;
  return h("section", { class: ["scoreboard", "scoreboard-redgreen"], "aria-label": "Roads and statistics" },
    h("div", { class: "roads" },
      h("figure", { class: "road-box bead" }, h("figcaption", {}, "Bead plate"), scroller((n) => redGreenBeadPlateSvg(outcomes, n || 12), 22)),
      h("figure", { class: "road-box big" }, h("figcaption", {}, "Big road"), scroller((n) => redGreenBigRoadSvg(outcomes, n || 24), 18)),
      h("p", { class: "road-legend" }, h("span", {}, h("span", { class: "legend-trips", "aria-hidden": "true" }), " three of a kind in the round"),
        h("span", {}, "a slash: a push, with the count when more than one"))),
    h("div", { class: "shoe-stats" },
      h("h3", {}, "These rounds"),
      h("dl", { class: "stats" },
        stat("Rounds", "rounds", String(st.rounds)),
        stat("Red", "red", share(st.red), "rg-red"),
        stat("Green", "green", share(st.green), "rg-green"),
        stat("Push", "push", share(st.push), "rg-push"),
        stat("Three of a kind", "trips", String(st.trips)),
        stat("Bonus hits", "bonus", share(st.bonus)),
        stat("Longest streak", "longest", `Red ${st.longest.red} · Green ${st.longest.green}`))));
}

// --- Lo-Ball ---------------------------------------------------------------------------

/** Beads of a number each, top to bottom then left to right: the dealer's points, or the dice's total. */
function numberPlate(outcomes, kind, label, value, cls, words, minCols) {
  const cell = 22;
  const cells = beadPlate(outcomes);
  const letters = outcomes.map(value).join(" ");
  const said = outcomes.map(words).join(", ");
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, kind, `${label}: ${said || "no rounds yet"}`, letters);
  for (const { x, y, outcome } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    svg.append(
      s("circle", { cx, cy, r: cell / 2 - 2, class: ["bead", cls(outcome)] }),
      s("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "bead-letter" }, String(value(outcome))));
  }
  return svg;
}

export function dealerPlateSvg(outcomes, minCols = 12) {
  return numberPlate(outcomes, "dealer-plate", "Dealer's points", (o) => o.dealer, (o) => `lb-${o.result}`,
    (o) => `${points(o.dealer)}, ${RESULT_WORDS[o.result]}`, minCols);
}

export function dicePlateSvg(outcomes, minCols = 12) {
  return numberPlate(outcomes, "dice-plate", "Dice", (o) => o.diceTotal, (o) => `dice-${o.diceCall}`,
    (o) => `${o.dice.join("-")} ${DICE_NAME[o.diceCall]}`, minCols);
}

const LAST_ROUNDS = 8;

function tileCell(call) {
  return h("td", { class: `tile-${call}`, "data-call": call, title: TILE_TITLES[call] }, TILE_WORDS[call]);
}

function loBallRounds(outcomes) {
  const last = outcomes.slice(-LAST_ROUNDS).reverse();
  const first = outcomes.length - last.length;
  return h("table", { class: "last-rounds" },
    h("caption", {}, "The last rounds, newest first"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Dealer"), h("th", { scope: "col" }, "Won"),
      h("th", { scope: "col", title: "Lo-Card: the 1-1 tile" }, "1-1"), h("th", { scope: "col", title: "Hi-Card: the 7-7 tile" }, "7-7"), h("th", { scope: "col" }, "Dice"))),
    h("tbody", {}, last.map((o, i) => h("tr", { "data-round": o.round ?? "" },
      h("td", {}, String(first + last.length - i)),
      h("td", { class: `lb-${o.result}` }, points(o.dealer)),
      h("td", {}, `${o.won} of ${o.seats.length}`),
      tileCell(o.lo), tileCell(o.hi),
      h("td", { class: `dice-${o.diceCall}` }, `${o.dice.join("-")} (${o.diceTotal}) ${DICE_NAME[o.diceCall]}`)))));
}

function loBallScoreboard(outcomes) {
  const st = loBallStatistics(outcomes);
  const share = (n) => `${n} · ${percent(n, st.rounds)}`;
  return h("section", { class: ["scoreboard", "scoreboard-lo-ball"], "aria-label": "Roads and statistics" },
    h("div", { class: "roads" },
      h("figure", { class: "road-box bead" }, h("figcaption", {}, "Dealer's points"), scroller((n) => dealerPlateSvg(outcomes, n || 12), 22)),
      h("figure", { class: "road-box dice" }, h("figcaption", {}, "Dice total"), scroller((n) => dicePlateSvg(outcomes, n || 12), 22)),
      h("p", { class: "road-legend" },
        h("span", { class: "key lb-players" }, "every hand won"), h("span", { class: "key lb-split" }, "some hands won"),
        h("span", { class: "key lb-dealer" }, "the dealer won"), " · dice: ",
        h("span", { class: "key dice-lo" }, "Lo 4-10"), h("span", { class: "key dice-hi" }, "Hi 11-17"), h("span", { class: "key dice-triple" }, "triple")),
      outcomes.length ? h("div", { class: "last-rounds-box" }, loBallRounds(outcomes)) : null),
    h("div", { class: "shoe-stats" },
      h("h3", {}, "These rounds"),
      h("dl", { class: "stats" },
        stat("Rounds", "rounds", String(st.rounds)),
        stat("Dealer's points, average", "dealer-points", st.dealerPoints === null ? "—" : st.dealerPoints.toFixed(1)),
        stat("Every hand won", "players", share(st.players)),
        stat("Some hands won", "split", share(st.split)),
        stat("The dealer won", "dealer", share(st.dealer)),
        stat("Hands that won", "hands-won", `${st.handsWon} of ${st.hands}`),
        stat("No points (Win-bonus)", "win-bonus", String(st.winBonus)),
        stat("27 points (Play-bonus)", "play-bonus", String(st.playBonus)),
        stat("1-1 turned up", "lo-exposed", String(st.loExposed)),
        stat("7-7 turned up", "hi-exposed", String(st.hiExposed)),
        stat("No tiles exposed", "both-held", String(st.bothHeld)),
        stat("Dice Lo", "dice-lo", share(st.diceLo)),
        stat("Dice Hi", "dice-hi", share(st.diceHi)),
        stat("Dice triple", "triple", share(st.triple)))));
}

// --- what gameroads.js hands the pages -------------------------------------------------

export function scoreboardOf(kind, outcomes) {
  if (kind === "scored-hands") return puntoBancoScoreboard(outcomes);
  if (kind === "set-hands") return redGreenScoreboard(outcomes);
  if (kind === "seats-against-dealer") return loBallScoreboard(outcomes);
  return h("p", { class: "quiet" }, "This game keeps no roads.");
}

const MINI_COLUMNS = 20;
const MINI_ROUNDS = 12;

/** Punto Banco's big road, its newest columns, small. */
function miniBigRoad(outcomes) {
  const cell = 12;
  const cells = place(bigRoad(outcomes));
  const last = cells.length ? Math.max(...cells.map((c) => c.x)) : 0;
  const from = Math.max(0, last - MINI_COLUMNS + 2);
  const letters = bigRoad(outcomes).map((column) => column.map((e) => e.winner[0].toUpperCase()).join("")).join(" ");
  const svg = grid(MINI_COLUMNS, ROWS, cell, "mini-big-road", `Big road: ${letters || "no decisions yet"}`, letters);
  svg.classList.add("mini-road");
  for (const { x, y, entry } of cells) {
    if (x < from) continue;
    const cx = (x - from) * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2;
    svg.append(s("circle", { cx, cy, r, class: ["ring", entry.winner] }));
    if (entry.ties + entry.tiesBefore) svg.append(s("path", { d: `M${cx - r} ${cy + r}L${cx + r} ${cy - r}`, class: "tie-line" }));
  }
  return svg;
}

/** Beads in one row, the newest at the right: `rows` lines of a number or letter each. */
function miniRow(outcomes, kind, label, lines, words) {
  const cell = 20;
  const last = outcomes.slice(-MINI_ROUNDS);
  const letters = last.map((o) => lines.map((line) => line.text(o)).join("/")).join(" ");
  const svg = grid(MINI_ROUNDS, lines.length, cell, kind, `${label}: ${last.map(words).join(", ") || "no rounds yet"}`, letters);
  svg.classList.add("mini-road");
  last.forEach((o, x) => {
    const cx = x * cell + cell / 2;
    lines.forEach((line, y) => {
      const cy = y * cell + cell / 2;
      svg.append(
        s("circle", { cx, cy, r: cell / 2 - 2, class: ["bead", line.cls(o)] }),
        s("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", class: "bead-letter mini" }, String(line.text(o))));
      if (line.trips && o.trips.length) tripsMark(svg, cx, cy, cell / 2 - 2);
    });
  });
  return svg;
}

function miniSummary(text) {
  return h("p", { class: "mini-summary" }, text);
}

/** The lobby's miniature of a table's last results. */
export function miniRoad(kind, outcomes) {
  if (!outcomes.length) return null; // the lobby says "No results yet"
  if (kind === "scored-hands") return h("div", { class: "mini-roads" }, miniBigRoad(outcomes));
  if (kind === "set-hands") {
    const st = redGreenStatistics(outcomes);
    return h("div", { class: "mini-roads" },
      miniRow(outcomes, "mini-redgreen", "The last rounds",
        [{ text: (o) => RG_LETTER[o.winner], cls: (o) => `rg-${o.winner}`, trips: true }],
        (o) => `${RG_NAME[o.winner]}${o.trips.length ? " (three of a kind)" : ""}`),
      miniSummary(`Red ${st.red} · Green ${st.green} · Push ${st.push} · Bonus ${st.bonus}`));
  }
  if (kind === "seats-against-dealer") {
    const st = loBallStatistics(outcomes);
    return h("div", { class: "mini-roads" },
      miniRow(outcomes, "mini-lo-ball", "The last rounds, dealer's points over the dice",
        [{ text: (o) => o.dealer, cls: (o) => `lb-${o.result}` }, { text: (o) => o.diceTotal, cls: (o) => `dice-${o.diceCall}` }],
        (o) => `dealer ${points(o.dealer)}, ${RESULT_WORDS[o.result]}, dice ${o.diceTotal} ${DICE_NAME[o.diceCall]}`),
      miniSummary(`Dealer's points over the dice · hands won ${st.handsWon} of ${st.hands}`));
  }
  return null;
}
