// The operator's report (admins): over a period, each table's and each game's rounds,
// handle, actual and theoretical win, σ, z and hold (GET /api/admin/report), the tables
// beyond ±3σ flagged and explained, and the chart of actual against theoretical win.

import { ApiError, get } from "../api.js";
import { dateTime, h, money, replace } from "../dom.js";
import { gameName } from "../layouts.js";
import { count, number } from "../words.js";
import { reportChart, zText } from "../reportchart.js";
import { session } from "../session.js";

const DAY_MS = 86_400_000;

/** Admins only: anyone else is told so (the API refuses them too). */
export function adminOnly(main) {
  if (session.user && session.user.role === "admin") return false;
  replace(main, h("section", { class: "panel narrow", "aria-labelledby": "admins-only" },
    h("h1", { id: "admins-only" }, "Admins only"),
    h("p", {}, "The back office — the operator's report, the audit trail and wallet adjustments, the dealers' tables and voids — is for the casino's administrators. Sign in with an admin's account to see it."),
    h("a", { href: "/", "data-link": true }, "Back to the lobby")));
  return true;
}

/** A date field's value (the browser's own day) as YYYY-MM-DD. */
export function isoDay(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** [from, to) in seconds: from the first day's midnight to the midnight after the last day (local time). */
export function period(fromDay, toDay) {
  const midnight = (text) => {
    const [y, m, d] = text.split("-").map(Number);
    return new Date(y, m - 1, d).getTime() / 1000;
  };
  const [y, m, d] = toDay.split("-").map(Number);
  return [midnight(fromDay), new Date(y, m - 1, d + 1).getTime() / 1000];
}

const percent = (value) => (value === null || value === undefined ? "—" : `${value.toFixed(2).replace("-", "−")} %`);

function figures(row) {
  return [
    h("td", { "data-col": "rounds" }, number(row.rounds)),
    h("td", { "data-col": "handle" }, money(row.handle_cents)),
    h("td", { "data-col": "actual", class: row.actual_win_cents < 0 ? "down" : null }, money(row.actual_win_cents)),
    h("td", { "data-col": "theoretical", title: `exactly ${row.theoretical_win_exact} cents` }, money(row.theoretical_win_cents)),
    h("td", { "data-col": "sd" }, money(row.sd_cents)),
    h("td", { "data-col": "z" }, zText(row.z), row.flagged ? h("span", { class: "flag-mark" }, " ⚑ beyond ±3σ") : null),
    h("td", { "data-col": "hold" }, percent(row.hold_pct)),
  ];
}

const HEAD = ["Rounds", "Handle", "Actual win", "Theoretical win", "σ", "z", "Hold"];

function tablesTable(rows) {
  return h("table", { class: "data-table report-table", id: "report-tables" },
    h("caption", {}, "Per table"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Table"), h("th", { scope: "col" }, "Game"), HEAD.map((t) => h("th", { scope: "col", class: "num" }, t)))),
    h("tbody", {}, rows.length
      ? rows.map((row) => h("tr", { "data-table-id": row.table_id, class: row.flagged ? "flagged" : null },
        h("th", { scope: "row" }, `Table ${row.table_id}`),
        h("td", {}, `${gameName(row.game)}${row.mode === "live" ? " · live" : ""}`),
        figures(row)))
      : h("tr", {}, h("td", { colspan: 9, class: "quiet" }, "No round was settled in this period."))));
}

function gamesTable(rows, casino) {
  return h("table", { class: "data-table report-table", id: "report-games" },
    h("caption", {}, "Per game"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), HEAD.map((t) => h("th", { scope: "col", class: "num" }, t)))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-game": row.game, class: row.flagged ? "flagged" : null },
      h("th", { scope: "row" }, gameName(row.game)), figures(row)))),
    h("tfoot", {}, h("tr", { class: ["casino", casino.flagged ? "flagged" : null] }, h("th", { scope: "row" }, "The casino"), figures(casino))));
}

function flags(report) {
  const flagged = report.tables.filter((t) => t.flagged);
  if (!report.tables.length) return null;
  if (!flagged.length) {
    return h("p", { class: "flag-none", id: "report-flags" }, `No table is beyond ±${report.flag_sigmas}σ: every table's win is within what chance explains.`);
  }
  return h("section", { class: "flag-box", id: "report-flags", "aria-labelledby": "flags-title" },
    h("h2", { id: "flags-title" }, `⚑ ${flagged.length === 1 ? "A table" : `${flagged.length} tables`} beyond ±${report.flag_sigmas}σ`),
    h("ul", {}, flagged.map((t) => h("li", { "data-table-id": t.table_id },
      h("strong", {}, `Table ${t.table_id} (${gameName(t.game)}${t.mode === "live" ? ", live dealer" : ""})`),
      `: the house ${t.actual_win_cents < 0 ? "lost" : "won"} ${money(Math.abs(t.actual_win_cents))} where it expected to win ${money(t.theoretical_win_cents)} over ${count("words.rounds", t.rounds)} — `,
      `z = ${zText(t.z)}, ${Math.abs(t.z).toFixed(1)} standard deviations (σ ${money(t.sd_cents)}) ${t.z < 0 ? "below" : "above"} what the mathematics expects.`))),
    h("p", {}, `Chance alone puts a table beyond ±${report.flag_sigmas}σ about once in 370 periods (0.27 %). Look at it: a faulty or stacked shoe, a dealer's mistakes or cheating, or a fault in the software. A few rounds with large stakes can do it too — see the rounds and their stakes.`));
}

function summary(report) {
  const c = report.casino;
  const fact = (label, value, key) => h("div", {}, h("dt", {}, label), h("dd", { "data-fact": key }, value));
  return h("dl", { class: "facts report-facts" },
    fact("Rounds", number(c.rounds), "rounds"),
    fact("Handle", money(c.handle_cents), "handle"),
    fact("Actual win", money(c.actual_win_cents), "actual"),
    fact("Theoretical win", money(c.theoretical_win_cents), "theoretical"),
    fact("Std deviation", money(c.sd_cents), "sd"),
    fact("z score", zText(c.z), "z"),
    fact("Hold", percent(c.hold_pct), "hold"));
}

export function mount(main) {
  if (adminOnly(main)) return null;
  let stopped = false;
  const params = new URLSearchParams(location.search);
  const today = new Date();
  const from = h("input", { id: "report-from", name: "from", type: "date", required: true,
    value: params.get("from") || isoDay(new Date(today.getTime() - 6 * DAY_MS)) });
  const to = h("input", { id: "report-to", name: "to", type: "date", required: true, value: params.get("to") || isoDay(today) });
  const error = h("p", { class: "form-error", role: "alert" });
  const body = h("div", { class: "report-body", "aria-live": "polite" });

  async function load() {
    error.textContent = "";
    if (!from.value || !to.value) {
      error.textContent = "Choose the first and the last day.";
      return;
    }
    if (from.value > to.value) {
      error.textContent = "The first day must not be after the last.";
      return;
    }
    const [since, until] = period(from.value, to.value);
    body.setAttribute("aria-busy", "true");
    try {
      const report = await get(`/api/admin/report?from=${since}&to=${until}`);
      if (stopped) return;
      history.replaceState({}, "", `/admin/report?from=${from.value}&to=${to.value}`);
      draw(report);
    } catch (failure) {
      if (!stopped) error.textContent = failure instanceof ApiError ? failure.message : "The casino cannot be reached; try again.";
    } finally {
      body.removeAttribute("aria-busy");
    }
  }

  function draw(report) {
    replace(body,
      h("p", { class: "quiet", id: "report-period" }, `Rounds settled from ${dateTime(report.from)} to ${dateTime(report.to)}.`),
      summary(report),
      flags(report),
      report.tables.length
        ? h("figure", { class: "panel chart-box" },
          h("figcaption", {}, "Actual win against theoretical win, per table. The bands are ±1σ and ±3σ around the theoretical win; the dot is what the table actually won."),
          h("div", { class: "chart-scroll", tabindex: "0" }, reportChart(report.tables)))
        : null,
      h("div", { class: "table-scroll" }, tablesTable(report.tables)),
      report.games.length ? h("div", { class: "table-scroll" }, gamesTable(report.games, report.casino)) : null,
      h("dl", { class: "report-terms" },
        h("dt", {}, "Handle"), h("dd", {}, "Everything staked on the rounds settled in the period."),
        h("dt", {}, "Actual win"), h("dd", {}, "Stakes less payouts: what the house won."),
        h("dt", {}, "Theoretical win"), h("dd", {}, "Each stake times its bet's exact house edge under the table's rules."),
        h("dt", {}, "σ"), h("dd", {}, "The standard deviation of the win, from the exact joint distribution of each round's outcomes (bets on one round are not independent)."),
        h("dt", {}, "z"), h("dd", {}, `(actual − theoretical) / σ; beyond ±${report.flag_sigmas} the table is flagged.`),
        h("dt", {}, "Hold"), h("dd", {}, "Actual win as a share of the handle.")));
  }

  replace(main, h("section", { class: "report-page", "aria-labelledby": "report-title" },
    h("h1", { id: "report-title" }, "Operator's report"),
    h("p", { class: "lead" }, "What each table won against what the mathematics says it should have, and how far apart they are in standard deviations."),
    h("form", { class: "inline-form period-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); load(); } },
      h("label", { for: "report-from" }, "From"), from,
      h("label", { for: "report-to" }, "To"), to,
      h("button", { type: "submit", class: "primary" }, "Show report")),
    error,
    body));
  load();
  return () => {
    stopped = true;
  };
}
