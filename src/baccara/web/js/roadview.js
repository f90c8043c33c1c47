// The Punto Banco roads drawn in SVG, and the shoe's statistics beside them.

import { h, s } from "./dom.js";
import { locale, t } from "./i18n.js";
import {
  DERIVED, ROWS, beadPlate, bigRoad, derivedRoad, place, predictions, statistics, streaks,
} from "./roads.js";
import { number } from "./words.js";

const LETTER = { banker: "B", player: "P", tie: "T" }; // the road's data, as tests read it
const DERIVED_NAME = { "big-eye-boy": "roads.derived.big-eye-boy", "small-road": "roads.derived.small-road", "cockroach-pig": "roads.derived.cockroach-pig" };

/** The mark a bead carries, in the page's language ("B" for Banker; "庄" in Chinese). */
export function letterOf(winner) {
  const key = { banker: "roads.letter.banker", player: "roads.letter.player", tie: "roads.letter.tie" }[winner];
  return key ? t(key) : String(winner);
}

/** A derived road's name in the page's language: "Big eye boy", "大眼仔". */
export function derivedName(id) {
  return DERIVED_NAME[id] ? t(DERIVED_NAME[id]) : id;
}

/** A derived road's colour as its readers name it: "R"/"B" (red, blue). */
function colourOf(letter) {
  return letter === "R" ? t("roads.colour.red") : t("roads.colour.blue");
}

/** A road's name with what it shows, for a screen reader: "Big road: BB P". */
export function roadLabel(name, shown, none) {
  return t("roads.road_label", { road: name, shown: shown || none });
}

/** An empty road `cols` by `rows` cells of `cell` pixels, named for readers and tests. */
export function grid(cols, rows, cell, kind, label, letters) {
  const width = cols * cell;
  const height = rows * cell;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: ["road", `road-${kind}`],
    role: "img",
    "aria-label": label,
    "data-letters": letters,
  });
  const lines = [];
  for (let x = 0; x <= cols; x += 1) lines.push(`M${x * cell} 0V${height}`);
  for (let y = 0; y <= rows; y += 1) lines.push(`M0 ${y * cell}H${width}`);
  svg.append(s("path", { d: lines.join(""), class: "road-grid" }));
  return svg;
}

export function columnsNeeded(cells, minimum) {
  return Math.max(minimum, ...cells.map((cell) => cell.x + 2));
}

function pairs(svg, cx, cy, r, entry) {
  if (entry.bankerPair) svg.append(s("circle", { cx: cx - r * 0.72, cy: cy - r * 0.72, r: r * 0.3, class: "pair banker" }));
  if (entry.playerPair) svg.append(s("circle", { cx: cx + r * 0.72, cy: cy + r * 0.72, r: r * 0.3, class: "pair player" }));
}

export function beadPlateSvg(outcomes, minCols = 12) {
  const cell = 22;
  const cells = beadPlate(outcomes);
  const cols = columnsNeeded(cells, minCols);
  const letters = outcomes.map((o) => LETTER[o.winner]).join(" ");
  const said = outcomes.map((o) => letterOf(o.winner)).join(" ");
  const svg = grid(cols, ROWS, cell, "bead-plate", roadLabel(t("roads.bead_plate"), said, t("roads.no_rounds")), letters);
  for (const { x, y, outcome } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    svg.append(
      s("circle", { cx, cy, r: cell / 2 - 2, class: ["bead", outcome.winner] }),
      s("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "bead-letter" }, letterOf(outcome.winner)),
    );
    pairs(svg, cx, cy, cell / 2 - 2, outcome);
  }
  return svg;
}

export function bigRoadSvg(outcomes, minCols = 24) {
  const cell = 18;
  const columns = bigRoad(outcomes);
  const cells = place(columns);
  const cols = columnsNeeded(cells, minCols);
  const letters = columns.map((column) => column.map((e) => LETTER[e.winner]).join("")).join(" ");
  const said = columns.map((column) => column.map((e) => letterOf(e.winner)).join("")).join(" ");
  const svg = grid(cols, ROWS, cell, "big-road", roadLabel(t("roads.big_road"), said, t("roads.no_decisions")), letters);
  for (const { x, y, entry } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const r = cell / 2 - 2.5;
    svg.append(s("circle", { cx, cy, r, class: ["ring", entry.winner] }));
    const ties = entry.ties + entry.tiesBefore;
    if (ties < 2) svg.append(s("text", { x: cx, y: cy + 3, "text-anchor": "middle", class: "ring-letter" }, letterOf(entry.winner))); // not by its colour alone
    if (ties) {
      svg.append(s("path", { d: `M${cx - r} ${cy + r}L${cx + r} ${cy - r}`, class: "tie-line" }));
      if (ties > 1) svg.append(s("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", class: "tie-count" }, String(ties)));
    }
    pairs(svg, cx, cy, r, entry);
  }
  return svg;
}

export function derivedSvg(outcomes, k, name, minCols = 24) {
  const cell = 11;
  const letters = derivedRoad(bigRoad(outcomes), k);
  const cells = place(streaks(letters));
  const cols = columnsNeeded(cells, minCols);
  const text = letters.join(" ");
  const said = letters.map(colourOf).join(" ");
  const svg = grid(cols, ROWS, cell, `derived-${k}`, roadLabel(name, said, t("roads.not_started")), text);
  for (const { x, y, entry } of cells) {
    const cx = x * cell + cell / 2;
    const cy = y * cell + cell / 2;
    const colour = entry === "R" ? "red" : "blue";
    const r = cell / 2 - 1.6;
    if (k === 1) svg.append(s("circle", { cx, cy, r, class: ["eye", colour] }));
    else if (k === 2) svg.append(s("circle", { cx, cy, r, class: ["dot", colour] }));
    else svg.append(s("path", { d: `M${cx - r} ${cy + r}L${cx + r} ${cy - r}`, class: ["slash", colour] }));
  }
  return svg;
}

function marker(letter, k) {
  const colour = letter === "R" ? "red" : "blue";
  const svg = s("svg", { viewBox: "0 0 12 12", width: 12, height: 12, class: "marker", "aria-hidden": "true" });
  if (k === 1) svg.append(s("circle", { cx: 6, cy: 6, r: 4.3, class: ["eye", colour] }));
  else if (k === 2) svg.append(s("circle", { cx: 6, cy: 6, r: 4.5, class: ["dot", colour] }));
  else svg.append(s("path", { d: "M1.5 10.5L10.5 1.5", class: ["slash", colour] }));
  return svg;
}

const tenthFormats = new Map();

/** A number to a tenth, as the page's language writes it: "45.8". */
export function tenths(value) {
  if (!tenthFormats.has(locale())) tenthFormats.set(locale(), new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
  return tenthFormats.get(locale()).format(value);
}

/** A share in percent to a tenth: "45.8 %". */
export function percent(part, whole) {
  return whole ? t("roads.percent", { value: tenths((100 * part) / whole) }) : "—";
}

/** A count with its share of the rounds: "7 · 50.0 %". */
export function share(part, whole) {
  return t("roads.share", { n: number(part), percent: percent(part, whole) });
}

/** A road's box: it fills its width with empty columns, and scrolls to the newest when
 * the road is longer. `render(columns)` draws the road at least that wide. */
export function scroller(render, cell) {
  const box = h("div", { class: "road-scroll", tabindex: "0" }, render(0));
  requestAnimationFrame(() => {
    const columns = Math.floor((box.clientWidth - 1) / cell);
    if (columns > 0) box.replaceChildren(render(columns));
    box.scrollLeft = box.scrollWidth;
  });
  return box;
}

/** The whole scoreboard: the five roads, what each road would show next, and the counts. */
export function scoreboard(outcomes) {
  const stats = statistics(outcomes);
  const next = predictions(outcomes);
  const ask = (winner, label) =>
    h("p", { class: ["ask", winner] }, h("span", { class: "ask-label" }, label),
      ...DERIVED.map(({ k, id }, i) => (next[winner][i] ? h("span", { class: "ask-mark", title: derivedName(id) }, marker(next[winner][i], k)) : h("span", { class: "ask-mark empty" }, "·"))));
  return h("section", { class: "scoreboard", "aria-label": t("roads.scoreboard_label") },
    h("div", { class: "roads" },
      h("figure", { class: "road-box bead" }, h("figcaption", {}, t("roads.bead_plate")), scroller((n) => beadPlateSvg(outcomes, n || 12), 22)),
      h("figure", { class: "road-box big" }, h("figcaption", {}, t("roads.big_road")), scroller((n) => bigRoadSvg(outcomes, n || 24), 18)),
      h("div", { class: "derived-row" },
        ...DERIVED.map(({ k, id }) => h("figure", { class: ["road-box", "derived", id] }, h("figcaption", {}, derivedName(id)), scroller((n) => derivedSvg(outcomes, k, derivedName(id), n || 16), 11))))),
    h("div", { class: "shoe-stats" },
      h("h3", {}, t("roads.this_shoe")),
      h("dl", { class: "stats" },
        h("div", {}, h("dt", {}, t("roads.stat.rounds")), h("dd", { "data-stat": "rounds" }, number(stats.rounds))),
        h("div", { class: "banker" }, h("dt", {}, t("roads.stat.banker")), h("dd", { "data-stat": "banker" }, share(stats.banker, stats.rounds))),
        h("div", { class: "player" }, h("dt", {}, t("roads.stat.player")), h("dd", { "data-stat": "player" }, share(stats.player, stats.rounds))),
        h("div", { class: "tie" }, h("dt", {}, t("roads.stat.tie")), h("dd", { "data-stat": "tie" }, share(stats.tie, stats.rounds))),
        h("div", {}, h("dt", {}, t("roads.stat.banker_pair")), h("dd", { "data-stat": "banker-pair" }, number(stats.bankerPair))),
        h("div", {}, h("dt", {}, t("roads.stat.player_pair")), h("dd", { "data-stat": "player-pair" }, number(stats.playerPair))),
        h("div", {}, h("dt", {}, t("roads.stat.naturals")), h("dd", { "data-stat": "natural" }, number(stats.natural))),
        h("div", {}, h("dt", {}, t("roads.stat.longest")), h("dd", {}, t("roads.longest_banker_player", { banker: number(stats.longest.banker), player: number(stats.longest.player) })))),
      h("div", { class: "asks", "aria-label": t("roads.asks_label") },
        ask("banker", t("roads.ask.banker")), ask("player", t("roads.ask.player")))));
}
