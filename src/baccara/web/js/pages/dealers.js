// The floor (admins): which live tables each dealer deals (GET /api/admin/dealers, and
// PUT /api/admin/dealers/{username}/tables to change them, recorded in the audit trail),
// and over a period each dealer's voids at the live tables — rounds dealt, rounds voided,
// the stakes refunded, by dealer and by table, with the voided rounds listed — and the
// dealer whose void share is far above the others' flagged (GET /api/admin/voids).

import { get, put } from "../api.js";
import { dateTime, h, money, replace } from "../dom.js";
import { failureText } from "../failure.js";
import { has, t } from "../i18n.js";
import { gameName, voidReason } from "../layouts.js";
import { number } from "../words.js";
import { adminOnly, isoDay, period } from "./report.js";

const DAY_MS = 86_400_000;

const share = (value) => `${(100 * value).toFixed(1)} %`;

function dealerRow(row) {
  return h("tr", { "data-dealer": row.dealer, class: row.flagged ? "flagged" : null },
    h("th", { scope: "row" }, row.dealer, row.role && row.role !== "dealer" ? h("small", {}, has(`admin.audit.new_role.${row.role}`) ? t(`admin.audit.new_role.${row.role}`) : row.role) : null),
    h("td", { "data-col": "rounds" }, number(row.rounds)),
    h("td", { "data-col": "voided" }, number(row.voided)),
    h("td", { "data-col": "share" }, share(row.void_share),
      row.flagged ? h("span", { class: "flag-mark" }, ` ⚑ ${t("admin.voids.flagged_mark")}`) : null),
    h("td", { "data-col": "peers" }, row.peer_median_share === null ? "—" : share(row.peer_median_share)),
    h("td", { "data-col": "stakes" }, money(row.voided_stakes_cents)),
    h("td", { "data-col": "tables" }, row.tables.map((one) => t("admin.voids.by_table", { table: one.table_id, voided: number(one.voided), rounds: number(one.rounds) })).join(" · ")));
}

function dealersTable(rows) {
  return h("table", { class: "data-table report-table", id: "void-dealers" },
    h("caption", {}, t("admin.voids.per_dealer")),
    h("thead", {}, h("tr", {}, ["dealer", "dealt", "voided", "share", "median", "stakes", "by_table"]
      .map((id, i) => h("th", { scope: "col", class: i ? "num" : null }, t(`admin.voids.col.${id}`))))),
    h("tbody", {}, rows.length
      ? rows.map(dealerRow)
      : h("tr", {}, h("td", { colspan: 7, class: "quiet" }, t("admin.voids.none_dealt")))));
}

function tablesTable(rows) {
  return h("table", { class: "data-table report-table", id: "void-tables" },
    h("caption", {}, t("admin.report.per_table")),
    h("thead", {}, h("tr", {}, [t("admin.col.table"), t("admin.col.game"), t("admin.report.col.rounds"), t("admin.voids.col.voided"), t("admin.voids.col.share"), t("admin.voids.col.stakes")]
      .map((text, i) => h("th", { scope: "col", class: i > 1 ? "num" : null }, text)))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-table-id": row.table_id },
      h("th", { scope: "row" }, t("admin.table", { table: row.table_id })),
      h("td", {}, gameName(row.game)),
      h("td", { "data-col": "rounds" }, number(row.rounds)),
      h("td", { "data-col": "voided" }, number(row.voided)),
      h("td", { "data-col": "share" }, share(row.void_share)),
      h("td", { "data-col": "stakes" }, money(row.voided_stakes_cents))))));
}

const COLUMNS = ["when", "table", "round", "dealer", "voided_by", "reason", "stakes"];

function roundsTable(report) {
  const rows = report.voided_rounds;
  return h("table", { class: "data-table audit-table", id: "void-rounds" },
    h("caption", {}, report.more_voided_rounds
      ? t("admin.voids.rounds_more", { n: rows.length, more: report.more_voided_rounds })
      : t("admin.voids.rounds")),
    h("thead", {}, h("tr", {}, COLUMNS.map((id) => h("th", { scope: "col" }, t(`admin.voids.round_col.${id}`))))),
    h("tbody", {}, rows.length
      ? rows.map((r) => {
        const label = (id) => t(`admin.voids.round_col.${id}`);
        return h("tr", { "data-round-id": r.round_id },
          h("td", { class: "when", "data-label": label("when") }, dateTime(r.ended_at)),
          h("td", { "data-label": label("table") }, t("admin.table", { table: r.table_id })),
          h("td", { "data-label": label("round") }, `#${r.nonce}`),
          h("td", { "data-label": label("dealer") }, r.dealer || "—"),
          h("td", { "data-label": label("voided_by") }, r.voided_by || "—"),
          h("td", { class: "reason", "data-label": label("reason") }, voidReason(r.reason) || "—"),
          h("td", { "data-label": label("stakes") }, money(r.stakes_cents)));
      })
      : h("tr", {}, h("td", { colspan: 7, class: "quiet" }, t("admin.voids.none_voided")))));
}

function flags(report) {
  const flagged = report.dealers.filter((d) => d.flagged);
  const rule = t("admin.voids.rule", { rounds: number(report.min_rounds), voids: number(report.min_voids), ratio: number(report.flag_ratio) });
  if (!flagged.length) {
    return h("div", { id: "void-flags" },
      h("p", { class: "flag-none" }, t("admin.voids.flag_none")),
      h("p", { class: "quiet" }, rule));
  }
  return h("section", { class: "flag-box", id: "void-flags", "aria-labelledby": "void-flags-title" },
    h("h2", { id: "void-flags-title" }, `⚑ ${t("admin.voids.flagged", { n: flagged.length })}`),
    h("ul", {}, flagged.map((d) => h("li", { "data-dealer": d.dealer },
      h("strong", {}, d.dealer),
      t("admin.voids.flag_line", { voided: number(d.voided), n: d.rounds, share: share(d.void_share), stakes: money(d.voided_stakes_cents), median: share(d.peer_median_share) })))),
    h("p", {}, t("admin.voids.flag_look", { rule })));
}

// --- the dealers' tables --------------------------------------------------------------

function rosterPanel(setMessage) {
  const body = h("div", { class: "roster-body" });

  async function load() {
    try {
      const [dealers, tables] = await Promise.all([get("/api/admin/dealers"), get("/api/tables")]);
      const live = tables.filter((t) => t.mode === "live");
      draw(dealers, live);
    } catch (error) {
      replace(body, h("p", { class: "fail" }, failureText(error)));
    }
  }

  function draw(dealers, live) {
    if (!dealers.length) {
      replace(body, h("p", { class: "quiet" }, t("admin.roster.no_dealer", { command: "baccara user add NAME --role dealer" })));
      return;
    }
    if (!live.length) {
      replace(body, h("p", { class: "quiet" }, t("admin.roster.no_live")));
      return;
    }
    replace(body, h("div", { class: "table-scroll", tabindex: "0" }, h("table", { class: "data-table roster-table", id: "roster" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("admin.voids.col.dealer")),
        live.map((one) => h("th", { scope: "col" }, t("admin.table", { table: one.id }), h("small", {}, gameName(one.game)))),
        h("th", { scope: "col" }, t("admin.roster.change")))),
      h("tbody", {}, dealers.map((dealer) => dealerControls(dealer, live))))));
  }

  function dealerControls(dealer, live) {
    const boxes = live.map((one) => h("input", {
      type: "checkbox", name: `table-${one.id}`, value: String(one.id), checked: dealer.tables.includes(one.id),
      "aria-label": t("admin.roster.deals", { dealer: dealer.username, table: one.id }),
    }));
    const save = h("button", { type: "button", "aria-label": t("admin.roster.save_label", { dealer: dealer.username }) }, t("admin.roster.save"));
    save.addEventListener("click", async () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => Number(b.value));
      save.disabled = true;
      try {
        const answer = await put(`/api/admin/dealers/${encodeURIComponent(dealer.username)}/tables`, { tables: chosen });
        dealer.tables = answer.tables;
        setMessage("done", answer.tables.length
          ? t("admin.roster.now_deals", { dealer: answer.username, tables: answer.tables.map((id) => t("admin.audit.target.table", { id })).join(t("admin.list_separator")) })
          : t("admin.roster.no_table", { dealer: answer.username }));
      } catch (error) {
        setMessage("fail", failureText(error));
      } finally {
        save.disabled = false;
      }
    });
    return h("tr", { "data-dealer": dealer.username },
      h("th", { scope: "row" }, dealer.username),
      boxes.map((box) => h("td", { class: "check" }, box)),
      h("td", {}, save));
  }

  load();
  return body;
}

export function mount(main) {
  if (adminOnly(main)) return null;
  let stopped = false;
  const params = new URLSearchParams(location.search);
  const today = new Date();
  const from = h("input", { id: "voids-from", name: "from", type: "date", required: true,
    value: params.get("from") || isoDay(new Date(today.getTime() - 29 * DAY_MS)) });
  const to = h("input", { id: "voids-to", name: "to", type: "date", required: true, value: params.get("to") || isoDay(today) });
  const minRounds = h("input", { id: "voids-min-rounds", name: "min_rounds", type: "number", min: 1, max: 1000000, step: 1,
    required: true, value: params.get("min_rounds") || "20", "aria-describedby": "voids-min-hint" });
  const error = h("p", { class: "form-error", role: "alert" });
  const body = h("div", { class: "report-body", "aria-live": "polite" });
  const message = h("p", { class: "form-message", id: "roster-message", role: "status" });
  const setMessage = (kind, text) => {
    message.dataset.kind = kind;
    message.textContent = text;
  };

  async function load() {
    error.textContent = "";
    const least = Number(minRounds.value);
    if (!from.value || !to.value || from.value > to.value) {
      error.textContent = t("admin.period.both");
      return;
    }
    if (!Number.isInteger(least) || least < 1) {
      error.textContent = t("admin.voids.min_rounds");
      return;
    }
    const [since, until] = period(from.value, to.value);
    body.setAttribute("aria-busy", "true");
    try {
      const report = await get(`/api/admin/voids?from=${since}&to=${until}&min_rounds=${least}`);
      if (stopped) return;
      history.replaceState({}, "", `/admin/dealers?from=${from.value}&to=${to.value}&min_rounds=${least}`);
      replace(body,
        h("p", { class: "quiet", id: "voids-period" }, t("admin.voids.period", { from: dateTime(report.from), to: dateTime(report.to) })),
        flags(report),
        h("div", { class: "table-scroll", tabindex: "0" }, dealersTable(report.dealers)),
        report.tables.length ? h("div", { class: "table-scroll", tabindex: "0" }, tablesTable(report.tables)) : null,
        h("div", { class: "table-scroll", tabindex: "0" }, roundsTable(report)));
    } catch (failure) {
      if (!stopped) error.textContent = failureText(failure);
    } finally {
      body.removeAttribute("aria-busy");
    }
  }

  replace(main, h("section", { class: "report-page", "aria-labelledby": "dealers-title" },
    h("h1", { id: "dealers-title" }, t("admin.voids.title")),
    h("p", { class: "lead" }, t("admin.voids.lead")),
    h("section", { class: "panel", "aria-labelledby": "roster-title" },
      h("h2", { id: "roster-title" }, t("admin.roster.title")),
      h("p", { class: "quiet" }, t("admin.roster.note")),
      rosterPanel(setMessage),
      message),
    h("h2", {}, t("admin.voids.heading")),
    h("form", { class: "inline-form period-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); load(); } },
      h("label", { for: "voids-from" }, t("admin.period.from")), from,
      h("label", { for: "voids-to" }, t("admin.period.to")), to,
      h("label", { for: "voids-min-rounds" }, t("admin.voids.compare_from")), minRounds,
      h("small", { id: "voids-min-hint" }, t("admin.voids.rounds_dealt")),
      h("button", { type: "submit", class: "primary" }, t("admin.voids.show"))),
    error,
    body));
  load();
  return () => {
    stopped = true;
  };
}
