// RedGreen's and Lo-Ball's roads drawn in SVG with the counts beside them, and every
// game's miniature for the lobby. Punto Banco's scoreboard is roadview.js.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import {
  loBallStatistics, redGreenBigRoad, redGreenStatistics,
} from "./gameroadlogic.js";
import { ROWS, beadPlate, bigRoad, place } from "./roads.js";
import { columnsNeeded, grid, letterOf, roadLabel, scoreboard as puntoBancoScoreboard, scroller, share, tenths } from "./roadview.js";
import { number, points } from "./words.js";

const RG_LETTER = { red: "R", green: "G", push: "P" }; // the road's data, as tests read it

/** Each word by its catalog key; the key is the outcome's id, so a new one shows its id. */
const said = (prefix, id) => t(`${prefix}.${id}`);
const rgLetter = (winner) => said("roads.rg.letter", winner);
const rgName = (winner) => said("roads.rg.name", winner);
const diceName = (call) => said("roads.dice", call);
const resultWords = (result) => said("roads.lb.result", result);
/** A RedGreen round as a screen reader hears it: "Red", "Green (three of a kind)". */
const rgWords = (o) => (o.trips.length ? t("roads.rg.with_trips", { name: rgName(o.winner) }) : rgName(o.winner));
/** Three dice with their call: "2-3-5 Lo". */
const diceWords = (o) => t("roads.lb.dice_call", { dice: o.dice.join("-"), call: diceName(o.diceCall) });

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
  const words = outcomes.map(rgWords).join(t("roads.list_comma"));
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, "bead-plate", roadLabel(t("roads.bead_plate"), words, t("roads.no_rounds")), letters);
  for (const { x, y, outcome } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2;
    svg.append(
      s("circle", { cx, cy, r, class: ["bead", `rg-${outcome.winner}`] }),
      s("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "bead-letter" }, rgLetter(outcome.winner)));
    if (outcome.trips.length) tripsMark(svg, cx, cy, r);
  }
  return svg;
}

export function redGreenBigRoadSvg(outcomes, minCols = 24) {
  const cell = 18;
  const columns = redGreenBigRoad(outcomes);
  const cells = place(columns);
  const letters = columns.map((column) => column.map((e) => RG_LETTER[e.winner]).join("")).join(" ");
  const shown = columns.map((column) => column.map((e) => rgLetter(e.winner)).join("")).join(" ");
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, "big-road", roadLabel(t("roads.big_road"), shown, t("roads.no_decisions")), letters);
  for (const { x, y, entry } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2.5;
    svg.append(s("circle", { cx, cy, r, class: ["ring", `rg-${entry.winner}`] }));
    const pushes = entry.pushes + entry.pushesBefore;
    if (pushes < 2) svg.append(s("text", { x: cx, y: cy + 3, "text-anchor": "middle", class: "ring-letter" }, rgLetter(entry.winner))); // not by its colour alone
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
  const part = (n) => share(n, st.rounds);
  return h("section", { class: ["scoreboard", "scoreboard-redgreen"], "aria-label": t("roads.scoreboard_label") },
    h("div", { class: "roads" },
      h("figure", { class: "road-box bead" }, h("figcaption", {}, t("roads.bead_plate")), scroller((n) => redGreenBeadPlateSvg(outcomes, n || 12), 22)),
      h("figure", { class: "road-box big" }, h("figcaption", {}, t("roads.big_road")), scroller((n) => redGreenBigRoadSvg(outcomes, n || 24), 18)),
      h("p", { class: "road-legend" }, h("span", {}, h("span", { class: "legend-trips", "aria-hidden": "true" }), " ", t("roads.rg.legend_trips")),
        h("span", {}, t("roads.rg.legend_push")))),
    h("div", { class: "shoe-stats" },
      h("h3", {}, t("roads.these_rounds")),
      h("dl", { class: "stats" },
        stat(t("roads.stat.rounds"), "rounds", number(st.rounds)),
        stat(rgName("red"), "red", part(st.red), "rg-red"),
        stat(rgName("green"), "green", part(st.green), "rg-green"),
        stat(rgName("push"), "push", part(st.push), "rg-push"),
        stat(t("roads.rg.trips"), "trips", number(st.trips)),
        stat(t("roads.rg.bonus_hits"), "bonus", part(st.bonus)),
        stat(t("roads.stat.longest"), "longest", t("roads.rg.longest", { red: number(st.longest.red), green: number(st.longest.green) })))));
}

// --- Lo-Ball ---------------------------------------------------------------------------

/** Beads of a number each, top to bottom then left to right: the dealer's points, or the dice's total. */
function numberPlate(outcomes, kind, label, value, cls, words, minCols) {
  const cell = 22;
  const cells = beadPlate(outcomes);
  const letters = outcomes.map(value).join(" ");
  const heard = outcomes.map(words).join(t("roads.list_comma"));
  const svg = grid(columnsNeeded(cells, minCols), ROWS, cell, kind, roadLabel(label, heard, t("roads.no_rounds")), letters);
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
  return numberPlate(outcomes, "dealer-plate", t("roads.lb.dealer_points"), (o) => o.dealer, (o) => `lb-${o.result}`,
    (o) => t("roads.lb.dealer_words", { points: points(o.dealer), result: resultWords(o.result) }), minCols);
}

export function dicePlateSvg(outcomes, minCols = 12) {
  return numberPlate(outcomes, "dice-plate", t("roads.lb.dice"), (o) => o.diceTotal, (o) => `dice-${o.diceCall}`,
    diceWords, minCols);
}

const LAST_ROUNDS = 8;

function tileCell(call) {
  return h("td", { class: `tile-${call}`, "data-call": call, title: said("roads.tile_title", call) }, said("roads.tile", call));
}

function loBallRounds(outcomes) {
  const last = outcomes.slice(-LAST_ROUNDS).reverse();
  const first = outcomes.length - last.length;
  return h("table", { class: "last-rounds" },
    h("caption", {}, t("roads.lb.last_rounds")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("roads.lb.col_round")), h("th", { scope: "col" }, t("roads.lb.col_dealer")), h("th", { scope: "col" }, t("roads.lb.col_won")),
      h("th", { scope: "col", title: t("roads.lb.lo_card_title") }, "1-1"), h("th", { scope: "col", title: t("roads.lb.hi_card_title") }, "7-7"), h("th", { scope: "col" }, t("roads.lb.dice")))),
    h("tbody", {}, last.map((o, i) => h("tr", { "data-round": o.round ?? "" },
      h("td", {}, number(first + last.length - i)),
      h("td", { class: `lb-${o.result}` }, points(o.dealer)),
      h("td", {}, t("roads.of", { part: number(o.won), whole: number(o.seats.length) })),
      tileCell(o.lo), tileCell(o.hi),
      h("td", { class: `dice-${o.diceCall}` }, t("roads.lb.dice_total_call", { dice: o.dice.join("-"), total: o.diceTotal, call: diceName(o.diceCall) }))))));
}

function loBallScoreboard(outcomes) {
  const st = loBallStatistics(outcomes);
  const part = (n) => share(n, st.rounds);
  return h("section", { class: ["scoreboard", "scoreboard-lo-ball"], "aria-label": t("roads.scoreboard_label") },
    h("div", { class: "roads" },
      h("figure", { class: "road-box bead" }, h("figcaption", {}, t("roads.lb.dealer_points")), scroller((n) => dealerPlateSvg(outcomes, n || 12), 22)),
      h("figure", { class: "road-box dice" }, h("figcaption", {}, t("roads.lb.dice_total")), scroller((n) => dicePlateSvg(outcomes, n || 12), 22)),
      h("p", { class: "road-legend" },
        h("span", { class: "key lb-players" }, resultWords("players")), h("span", { class: "key lb-split" }, resultWords("split")),
        h("span", { class: "key lb-dealer" }, resultWords("dealer")), t("roads.lb.legend_dice"),
        h("span", { class: "key dice-lo" }, t("roads.lb.legend_lo")), h("span", { class: "key dice-hi" }, t("roads.lb.legend_hi")), h("span", { class: "key dice-triple" }, t("roads.lb.legend_triple"))),
      outcomes.length ? h("div", { class: "last-rounds-box" }, loBallRounds(outcomes)) : null),
    h("div", { class: "shoe-stats" },
      h("h3", {}, t("roads.these_rounds")),
      h("dl", { class: "stats" },
        stat(t("roads.stat.rounds"), "rounds", number(st.rounds)),
        stat(t("roads.lb.stat.dealer_average"), "dealer-points", st.dealerPoints === null ? "—" : tenths(st.dealerPoints)),
        stat(t("roads.lb.stat.players"), "players", part(st.players)),
        stat(t("roads.lb.stat.split"), "split", part(st.split)),
        stat(t("roads.lb.stat.dealer"), "dealer", part(st.dealer)),
        stat(t("roads.lb.stat.hands_won"), "hands-won", t("roads.of", { part: number(st.handsWon), whole: number(st.hands) })),
        stat(t("roads.lb.stat.win_bonus"), "win-bonus", number(st.winBonus)),
        stat(t("roads.lb.stat.play_bonus"), "play-bonus", number(st.playBonus)),
        stat(t("roads.lb.stat.lo_exposed"), "lo-exposed", number(st.loExposed)),
        stat(t("roads.lb.stat.hi_exposed"), "hi-exposed", number(st.hiExposed)),
        stat(t("roads.lb.stat.both_held"), "both-held", number(st.bothHeld)),
        stat(t("roads.lb.stat.dice_lo"), "dice-lo", part(st.diceLo)),
        stat(t("roads.lb.stat.dice_hi"), "dice-hi", part(st.diceHi)),
        stat(t("roads.lb.stat.triple"), "triple", part(st.triple)))));
}

// --- what gameroads.js hands the pages -------------------------------------------------

export function scoreboardOf(kind, outcomes) {
  if (kind === "scored-hands") return puntoBancoScoreboard(outcomes);
  if (kind === "set-hands") return redGreenScoreboard(outcomes);
  if (kind === "seats-against-dealer") return loBallScoreboard(outcomes);
  return h("p", { class: "quiet" }, t("roads.none"));
}

const MINI_COLUMNS = 20;
const MINI_ROUNDS = 12;

/** Punto Banco's big road, its newest columns, small. */
function miniBigRoad(outcomes) {
  const cell = 12;
  const cells = place(bigRoad(outcomes));
  const last = cells.length ? Math.max(...cells.map((c) => c.x)) : 0;
  const from = Math.max(0, last - MINI_COLUMNS + 2);
  const columns = bigRoad(outcomes);
  const letters = columns.map((column) => column.map((e) => e.winner[0].toUpperCase()).join("")).join(" ");
  const shown = columns.map((column) => column.map((e) => letterOf(e.winner)).join("")).join(" ");
  const svg = grid(MINI_COLUMNS, ROWS, cell, "mini-big-road", roadLabel(t("roads.big_road"), shown, t("roads.no_decisions")), letters);
  svg.classList.add("mini-road");
  for (const { x, y, entry } of cells) {
    if (x < from) continue;
    const cx = (x - from) * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2;
    svg.append(s("circle", { cx, cy, r, class: ["ring", entry.winner] }),
      s("text", { x: cx, y: cy + 2.5, "text-anchor": "middle", class: "ring-letter mini" }, letterOf(entry.winner))); // not by its colour alone
    if (entry.ties + entry.tiesBefore) svg.append(s("path", { d: `M${cx - r} ${cy + r}L${cx + r} ${cy - r}`, class: "tie-line" }));
  }
  return svg;
}

/** Beads in one row, the newest at the right: `rows` lines of a number or letter each. */
function miniRow(outcomes, kind, label, lines, words) {
  const cell = 20;
  const last = outcomes.slice(-MINI_ROUNDS);
  const letters = last.map((o) => lines.map((line) => line.data(o)).join("/")).join(" ");
  const svg = grid(MINI_ROUNDS, lines.length, cell, kind, roadLabel(label, last.map(words).join(t("roads.list_comma")), t("roads.no_rounds")), letters);
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
      miniRow(outcomes, "mini-redgreen", t("roads.mini.last_rounds"),
        [{ text: (o) => rgLetter(o.winner), data: (o) => RG_LETTER[o.winner], cls: (o) => `rg-${o.winner}`, trips: true }],
        rgWords),
      miniSummary(t("roads.mini.rg_summary", { red: number(st.red), green: number(st.green), push: number(st.push), bonus: number(st.bonus) })));
  }
  if (kind === "seats-against-dealer") {
    const st = loBallStatistics(outcomes);
    return h("div", { class: "mini-roads" },
      miniRow(outcomes, "mini-lo-ball", t("roads.mini.lb_label"),
        [{ text: (o) => o.dealer, data: (o) => o.dealer, cls: (o) => `lb-${o.result}` }, { text: (o) => o.diceTotal, data: (o) => o.diceTotal, cls: (o) => `dice-${o.diceCall}` }],
        (o) => t("roads.mini.lb_words", { points: points(o.dealer), result: resultWords(o.result), total: o.diceTotal, call: diceName(o.diceCall) })),
      miniSummary(t("roads.mini.lb_summary", { won: number(st.handsWon), hands: number(st.hands) })));
  }
  return null;
}
