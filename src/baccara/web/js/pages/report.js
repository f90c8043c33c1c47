// The operator's report (admins): over a period, each table's and each game's rounds,
// handle, actual and theoretical win, σ, z and hold (GET /api/admin/report), the tables
// beyond ±3σ flagged and explained, and the chart of actual against theoretical win.

import { get } from "../api.js";
import { dateTime, h, money, replace } from "../dom.js";
import { failureText } from "../failure.js";
import { t } from "../i18n.js";
import { gameName } from "../layouts.js";
import { count, number } from "../words.js";
import { reportChart, zText } from "../reportchart.js";
import { session } from "../session.js";

const DAY_MS = 86_400_000;

/** Admins only: anyone else is told so (the API refuses them too). */
export function adminOnly(main) {
  if (session.user && session.user.role === "admin") return false;
  replace(main, h("section", { class: "panel narrow", "aria-labelledby": "admins-only" },
    h("h1", { id: "admins-only" }, t("admin.only")),
    h("p", {}, t("admin.only_note")),
    h("a", { href: "/", "data-link": true }, t("admin.back_to_lobby"))));
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
    h("td", { "data-col": "theoretical", title: t("admin.report.exact_cents", { exact: row.theoretical_win_exact }) }, money(row.theoretical_win_cents)),
    h("td", { "data-col": "sd" }, money(row.sd_cents)),
    h("td", { "data-col": "z" }, zText(row.z), row.flagged ? h("span", { class: "flag-mark" }, ` ⚑ ${t("admin.report.beyond", { sigmas: 3 })}`) : null),
    h("td", { "data-col": "hold" }, percent(row.hold_pct)),
  ];
}

const HEAD = ["rounds", "handle", "actual", "theoretical", "sd", "z", "hold"];
const head = () => HEAD.map((key) => h("th", { scope: "col", class: "num" }, t(`admin.report.col.${key}`)));
/** A game's name, and that its table is dealt live: "Punto Banco · live". */
const gameOf = (row, live) => (row.mode === "live" ? t(live, { game: gameName(row.game) }) : gameName(row.game));

function tablesTable(rows) {
  return h("table", { class: "data-table report-table", id: "report-tables" },
    h("caption", {}, t("admin.report.per_table")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("admin.col.table")), h("th", { scope: "col" }, t("admin.col.game")), head())),
    h("tbody", {}, rows.length
      ? rows.map((row) => h("tr", { "data-table-id": row.table_id, class: row.flagged ? "flagged" : null },
        h("th", { scope: "row" }, t("admin.table", { table: row.table_id })),
        h("td", {}, gameOf(row, "admin.report.game_live")),
        figures(row)))
      : h("tr", {}, h("td", { colspan: 9, class: "quiet" }, t("admin.report.none")))));
}

function gamesTable(rows, casino) {
  return h("table", { class: "data-table report-table", id: "report-games" },
    h("caption", {}, t("admin.report.per_game")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("admin.col.game")), head())),
    h("tbody", {}, rows.map((row) => h("tr", { "data-game": row.game, class: row.flagged ? "flagged" : null },
      h("th", { scope: "row" }, gameName(row.game)), figures(row)))),
    h("tfoot", {}, h("tr", { class: ["casino", casino.flagged ? "flagged" : null] }, h("th", { scope: "row" }, t("admin.report.casino")), figures(casino))));
}

function flags(report) {
  const flagged = report.tables.filter((row) => row.flagged);
  const sigmas = report.flag_sigmas;
  if (!report.tables.length) return null;
  if (!flagged.length) {
    return h("p", { class: "flag-none", id: "report-flags" }, t("admin.report.flag_none", { sigmas }));
  }
  return h("section", { class: "flag-box", id: "report-flags", "aria-labelledby": "flags-title" },
    h("h2", { id: "flags-title" }, `⚑ ${t("admin.report.flagged", { n: flagged.length, sigmas })}`),
    h("ul", {}, flagged.map((row) => h("li", { "data-table-id": row.table_id },
      h("strong", {}, t("admin.report.flag_table", { table: row.table_id, game: gameOf(row, "admin.report.game_live_dealer") })),
      t(row.actual_win_cents < 0 ? "admin.report.flag_lost" : "admin.report.flag_won", {
        amount: money(Math.abs(row.actual_win_cents)), expected: money(row.theoretical_win_cents), rounds: count("words.rounds", row.rounds),
      }),
      t(row.z < 0 ? "admin.report.flag_below" : "admin.report.flag_above", { z: zText(row.z), sds: Math.abs(row.z).toFixed(1), sd: money(row.sd_cents) })))),
    h("p", {}, t("admin.report.flag_chance", { sigmas })));
}

function summary(report) {
  const c = report.casino;
  const fact = (label, value, key) => h("div", {}, h("dt", {}, label), h("dd", { "data-fact": key }, value));
  return h("dl", { class: "facts report-facts" },
    fact(t("admin.report.col.rounds"), number(c.rounds), "rounds"),
    fact(t("admin.report.col.handle"), money(c.handle_cents), "handle"),
    fact(t("admin.report.col.actual"), money(c.actual_win_cents), "actual"),
    fact(t("admin.report.col.theoretical"), money(c.theoretical_win_cents), "theoretical"),
    fact(t("admin.report.fact.sd"), money(c.sd_cents), "sd"),
    fact(t("admin.report.fact.z"), zText(c.z), "z"),
    fact(t("admin.report.col.hold"), percent(c.hold_pct), "hold"));
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
      error.textContent = t("admin.period.choose");
      return;
    }
    if (from.value > to.value) {
      error.textContent = t("admin.period.order");
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
      if (!stopped) error.textContent = failureText(failure);
    } finally {
      body.removeAttribute("aria-busy");
    }
  }

  function draw(report) {
    replace(body,
      h("p", { class: "quiet", id: "report-period" }, t("admin.report.period", { from: dateTime(report.from), to: dateTime(report.to) })),
      summary(report),
      flags(report),
      report.tables.length
        ? h("figure", { class: "panel chart-box" },
          h("figcaption", {}, t("admin.report.chart_caption")),
          h("div", { class: "chart-scroll", tabindex: "0" }, reportChart(report.tables)))
        : null,
      h("div", { class: "table-scroll", tabindex: "0" }, tablesTable(report.tables)),
      report.games.length ? h("div", { class: "table-scroll", tabindex: "0" }, gamesTable(report.games, report.casino)) : null,
      h("dl", { class: "report-terms" },
        h("dt", {}, t("admin.report.col.handle")), h("dd", {}, t("admin.report.term.handle")),
        h("dt", {}, t("admin.report.col.actual")), h("dd", {}, t("admin.report.term.actual")),
        h("dt", {}, t("admin.report.col.theoretical")), h("dd", {}, t("admin.report.term.theoretical")),
        h("dt", {}, "σ"), h("dd", {}, t("admin.report.term.sd")),
        h("dt", {}, "z"), h("dd", {}, t("admin.report.term.z", { sigmas: report.flag_sigmas })),
        h("dt", {}, t("admin.report.col.hold")), h("dd", {}, t("admin.report.term.hold"))));
  }

  replace(main, h("section", { class: "report-page", "aria-labelledby": "report-title" },
    h("h1", { id: "report-title" }, t("admin.report.title")),
    h("p", { class: "lead" }, t("admin.report.lead")),
    h("form", { class: "inline-form period-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); load(); } },
      h("label", { for: "report-from" }, t("admin.period.from")), from,
      h("label", { for: "report-to" }, t("admin.period.to")), to,
      h("button", { type: "submit", class: "primary" }, t("admin.report.show"))),
    error,
    body));
  load();
  return () => {
    stopped = true;
  };
}
