// The operator's report drawn in SVG: per table, the actual win against the theoretical
// win, on a scale of standard deviations — the ±1σ and ±3σ bands around the theoretical
// win, the actual win as a dot. A dot outside the outer band is a flagged table.

import { money, s } from "./dom.js";
import { t } from "./i18n.js";
import { gameName } from "./layouts.js";

const WIDTH = 760;
const LABEL = 176; // the tables' names on the left
const RIGHT = 64; // z on the right
const TOP = 34; // the axis
const ROW = 58;
const BOTTOM = 30;

/** z with its sign and two decimals: +1.25, −4.36. */
export function zText(z) {
  const text = Math.abs(z).toFixed(2);
  return z < 0 ? `−${text}` : `+${text}`;
}

/** Where a table's actual win lies, in words. */
export function verdict(row) {
  const z = Math.abs(row.z);
  if (row.flagged) return t("admin.report.beyond", { sigmas: 3 });
  if (z > 1) return t("admin.chart.within", { sigmas: 3 });
  return t("admin.chart.within", { sigmas: 1 });
}

/** The chart's half-width in standard deviations: room for ±3σ and for every table's dot (up to 8σ). */
export function halfWidth(rows) {
  const furthest = Math.max(0, ...rows.map((r) => Math.abs(r.z)));
  return Math.min(8, Math.max(4, Math.ceil(furthest) + 1));
}

export function rowLabel(row) {
  return t("admin.chart.row_label", {
    table: row.table_id, game: gameName(row.game), mode: t(row.mode === "live" ? "admin.chart.live_dealer" : "admin.chart.electronic"),
    actual: money(row.actual_win_cents), theoretical: money(row.theoretical_win_cents), sd: money(row.sd_cents), z: zText(row.z), verdict: verdict(row),
  });
}

/** Every table of the report as one chart. */
export function reportChart(tables) {
  const k = halfWidth(tables);
  const plot = WIDTH - LABEL - RIGHT;
  const mid = LABEL + plot / 2;
  const x = (z) => mid + (Math.max(-k, Math.min(k, z)) * plot) / (2 * k);
  const height = TOP + tables.length * ROW + BOTTOM;
  const svg = s("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`, class: "report-chart", role: "group",
    "aria-label": t("admin.chart.label"),
  });
  svg.append(s("title", {}, t("admin.chart.label")));

  // The axis: the theoretical win in the middle, ±1σ and ±3σ, and the grid through every row.
  const axis = s("g", { class: "chart-axis", "aria-hidden": "true" });
  const ticks = [[-3, "−3σ"], [-1, "−1σ"], [0, t("admin.chart.theoretical")], [1, "+1σ"], [3, "+3σ"]];
  for (const [z, label] of ticks) {
    axis.append(
      s("text", { x: x(z), y: TOP - 12, "text-anchor": "middle", class: z === 0 ? "tick theory-tick" : "tick" }, label),
      s("path", { d: `M${x(z)} ${TOP - 6}V${height - BOTTOM}`, class: z === 0 ? "grid theory-line" : "grid" }),
    );
  }
  svg.append(axis);

  tables.forEach((row, i) => {
    const y = TOP + i * ROW;
    const band = { top: y + 18, height: 18 };
    const cy = band.top + band.height / 2;
    const z = row.sd_cents > 0 ? row.z : 0;
    const g = s("g", {
      class: ["chart-row", row.flagged ? "flagged" : null], role: "img", "aria-label": rowLabel(row),
      "data-table-id": row.table_id, "data-z": String(row.z),
    });
    g.append(s("title", {}, rowLabel(row)));
    if (i % 2 === 0) g.append(s("rect", { x: 0, y, width: WIDTH, height: ROW, class: "stripe" }));
    g.append(
      s("text", { x: 6, y: y + 24, class: "row-name" }, t("admin.table", { table: row.table_id })),
      s("text", { x: 6, y: y + 41, class: "row-game" }, t("admin.chart.row_game", {
        game: gameName(row.game), mode: t(row.mode === "live" ? "admin.chart.live" : "admin.chart.electronic"), rounds: t("words.rounds", { n: row.rounds }),
      })),
      s("rect", { x: x(-3), y: band.top, width: x(3) - x(-3), height: band.height, class: "band band-3" }),
      s("rect", { x: x(-1), y: band.top, width: x(1) - x(-1), height: band.height, class: "band band-1" }),
      s("path", { d: `M${x(0)} ${band.top - 3}V${band.top + band.height + 3}`, class: "theory" }),
      s("text", { x: x(-3), y: band.top + band.height + 13, "text-anchor": "middle", class: "band-value" }, money(row.theoretical_win_cents - 3 * row.sd_cents)),
      s("text", { x: x(0), y: band.top + band.height + 13, "text-anchor": "middle", class: "band-value theory-value" }, money(row.theoretical_win_cents)),
      s("text", { x: x(3), y: band.top + band.height + 13, "text-anchor": "middle", class: "band-value" }, money(row.theoretical_win_cents + 3 * row.sd_cents)),
    );
    const cx = x(z);
    if (Math.abs(z) > k) {
      // Off the scale: an arrow at the edge, pointing the way it went.
      const dir = z < 0 ? -1 : 1;
      g.append(s("path", { d: `M${cx + dir * 7} ${cy}L${cx - dir * 5} ${cy - 7}L${cx - dir * 5} ${cy + 7}Z`, class: "actual off-scale" }));
    } else {
      g.append(s("circle", { cx, cy, r: 6.5, class: "actual" }));
    }
    const anchor = cx < LABEL + 40 ? "start" : cx > WIDTH - RIGHT - 40 ? "end" : "middle";
    g.append(
      s("text", { x: cx, y: band.top - 6, "text-anchor": anchor, class: "actual-value" }, t("admin.chart.actual", { amount: money(row.actual_win_cents) })),
      s("text", { x: WIDTH - 6, y: cy + 4, "text-anchor": "end", class: "row-z" }, `z ${zText(row.z)}`),
    );
    svg.append(g);
  });

  svg.append(
    s("text", { x: LABEL, y: height - 10, class: "chart-note", "aria-hidden": "true" }, t("admin.chart.less")),
    s("text", { x: WIDTH - RIGHT, y: height - 10, "text-anchor": "end", class: "chart-note", "aria-hidden": "true" }, t("admin.chart.more")),
  );
  return svg;
}
