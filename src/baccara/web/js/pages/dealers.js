// The floor (admins): which live tables each dealer deals (GET /api/admin/dealers, and
// PUT /api/admin/dealers/{username}/tables to change them, recorded in the audit trail),
// and over a period each dealer's voids at the live tables — rounds dealt, rounds voided,
// the stakes refunded, by dealer and by table, with the voided rounds listed — and the
// dealer whose void share is far above the others' flagged (GET /api/admin/voids).

import { ApiError, get, put } from "../api.js";
import { dateTime, h, money, replace } from "../dom.js";
import { gameName } from "../layouts.js";
import { number } from "../words.js";
import { adminOnly, isoDay, period } from "./report.js";

const DAY_MS = 86_400_000;

const share = (value) => `${(100 * value).toFixed(1)} %`;

function dealerRow(row) {
  return h("tr", { "data-dealer": row.dealer, class: row.flagged ? "flagged" : null },
    h("th", { scope: "row" }, row.dealer, row.role && row.role !== "dealer" ? h("small", {}, row.role) : null),
    h("td", { "data-col": "rounds" }, number(row.rounds)),
    h("td", { "data-col": "voided" }, number(row.voided)),
    h("td", { "data-col": "share" }, share(row.void_share),
      row.flagged ? h("span", { class: "flag-mark" }, " ⚑ flagged") : null),
    h("td", { "data-col": "peers" }, row.peer_median_share === null ? "—" : share(row.peer_median_share)),
    h("td", { "data-col": "stakes" }, money(row.voided_stakes_cents)),
    h("td", { "data-col": "tables" }, row.tables.map((t) => `Table ${t.table_id}: ${number(t.voided)} of ${number(t.rounds)}`).join(" · ")));
}

function dealersTable(rows) {
  return h("table", { class: "data-table report-table", id: "void-dealers" },
    h("caption", {}, "Per dealer"),
    h("thead", {}, h("tr", {}, ["Dealer", "Rounds dealt", "Voided", "Void share", "Others' median", "Stakes voided", "By table"]
      .map((t, i) => h("th", { scope: "col", class: i ? "num" : null }, t)))),
    h("tbody", {}, rows.length
      ? rows.map(dealerRow)
      : h("tr", {}, h("td", { colspan: 7, class: "quiet" }, "No round was dealt at a live table in this period."))));
}

function tablesTable(rows) {
  return h("table", { class: "data-table report-table", id: "void-tables" },
    h("caption", {}, "Per table"),
    h("thead", {}, h("tr", {}, ["Table", "Game", "Rounds", "Voided", "Void share", "Stakes voided"]
      .map((t, i) => h("th", { scope: "col", class: i > 1 ? "num" : null }, t)))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-table-id": row.table_id },
      h("th", { scope: "row" }, `Table ${row.table_id}`),
      h("td", {}, gameName(row.game)),
      h("td", { "data-col": "rounds" }, number(row.rounds)),
      h("td", { "data-col": "voided" }, number(row.voided)),
      h("td", { "data-col": "share" }, share(row.void_share)),
      h("td", { "data-col": "stakes" }, money(row.voided_stakes_cents))))));
}

function roundsTable(report) {
  const rows = report.voided_rounds;
  return h("table", { class: "data-table audit-table", id: "void-rounds" },
    h("caption", {}, report.more_voided_rounds
      ? `The voided rounds, newest first (the ${rows.length} newest; ${report.more_voided_rounds} more in the period)`
      : "The voided rounds, newest first"),
    h("thead", {}, h("tr", {}, ["When", "Table", "Round", "Dealer", "Voided by", "Reason", "Stakes"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.length
      ? rows.map((r) => h("tr", { "data-round-id": r.round_id },
        h("td", { class: "when", "data-label": "When" }, dateTime(r.ended_at)),
        h("td", { "data-label": "Table" }, `Table ${r.table_id}`),
        h("td", { "data-label": "Round" }, `#${r.nonce}`),
        h("td", { "data-label": "Dealer" }, r.dealer || "—"),
        h("td", { "data-label": "Voided by" }, r.voided_by || "—"),
        h("td", { class: "reason", "data-label": "Reason" }, r.reason || "—"),
        h("td", { "data-label": "Stakes" }, money(r.stakes_cents))))
      : h("tr", {}, h("td", { colspan: 7, class: "quiet" }, "No round was voided in this period."))));
}

function flags(report) {
  const flagged = report.dealers.filter((d) => d.flagged);
  const rule = `A dealer is flagged who dealt at least ${report.min_rounds} rounds, voided at least ${report.min_voids}, and whose void share is more than ${report.flag_ratio} times the median share of the other dealers with at least ${report.min_rounds} rounds.`;
  if (!flagged.length) {
    return h("div", { id: "void-flags" },
      h("p", { class: "flag-none" }, "No dealer's void share is far above the others'."),
      h("p", { class: "quiet" }, rule));
  }
  return h("section", { class: "flag-box", id: "void-flags", "aria-labelledby": "void-flags-title" },
    h("h2", { id: "void-flags-title" }, `⚑ ${flagged.length === 1 ? "A dealer voids" : `${flagged.length} dealers void`} far more than the others`),
    h("ul", {}, flagged.map((d) => h("li", { "data-dealer": d.dealer },
      h("strong", {}, d.dealer),
      `: ${number(d.voided)} of ${number(d.rounds)} rounds voided (${share(d.void_share)}), ${money(d.voided_stakes_cents)} of stakes refunded, where the other dealers' median is ${share(d.peer_median_share)}.`))),
    h("p", {}, `${rule} Look at the rounds: a void refunds every bet, so a dealer who voids the hands the house would win, or the ones their friends would lose, moves the edge to the players.`));
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
      replace(body, h("p", { class: "fail" }, error instanceof ApiError ? error.message : "The casino cannot be reached; try again."));
    }
  }

  function draw(dealers, live) {
    if (!dealers.length) {
      replace(body, h("p", { class: "quiet" }, "No dealer yet: add one with baccara user add NAME --role dealer."));
      return;
    }
    if (!live.length) {
      replace(body, h("p", { class: "quiet" }, "No live table is open: open one to assign its dealers."));
      return;
    }
    replace(body, h("div", { class: "table-scroll" }, h("table", { class: "data-table roster-table", id: "roster" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Dealer"),
        live.map((t) => h("th", { scope: "col" }, `Table ${t.id}`, h("small", {}, gameName(t.game)))),
        h("th", { scope: "col" }, "Change"))),
      h("tbody", {}, dealers.map((dealer) => dealerControls(dealer, live))))));
  }

  function dealerControls(dealer, live) {
    const boxes = live.map((t) => h("input", {
      type: "checkbox", name: `table-${t.id}`, value: String(t.id), checked: dealer.tables.includes(t.id),
      "aria-label": `${dealer.username} deals table ${t.id}`,
    }));
    const save = h("button", { type: "button", "aria-label": `Save ${dealer.username}'s tables` }, "Save");
    save.addEventListener("click", async () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => Number(b.value));
      save.disabled = true;
      try {
        const answer = await put(`/api/admin/dealers/${encodeURIComponent(dealer.username)}/tables`, { tables: chosen });
        dealer.tables = answer.tables;
        setMessage("done", answer.tables.length
          ? `${answer.username} now deals ${answer.tables.map((t) => `table ${t}`).join(", ")}.`
          : `${answer.username} is assigned to no table now.`);
      } catch (error) {
        setMessage("fail", error instanceof ApiError ? error.message : "The casino cannot be reached; try again.");
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
      error.textContent = "Choose the first and the last day, the first not after the last.";
      return;
    }
    if (!Number.isInteger(least) || least < 1) {
      error.textContent = "Compare dealers with at least 1 round: enter a whole number.";
      return;
    }
    const [since, until] = period(from.value, to.value);
    body.setAttribute("aria-busy", "true");
    try {
      const report = await get(`/api/admin/voids?from=${since}&to=${until}&min_rounds=${least}`);
      if (stopped) return;
      history.replaceState({}, "", `/admin/dealers?from=${from.value}&to=${to.value}&min_rounds=${least}`);
      replace(body,
        h("p", { class: "quiet", id: "voids-period" }, `Rounds that ended at the live tables from ${dateTime(report.from)} to ${dateTime(report.to)}.`),
        flags(report),
        h("div", { class: "table-scroll" }, dealersTable(report.dealers)),
        report.tables.length ? h("div", { class: "table-scroll" }, tablesTable(report.tables)) : null,
        h("div", { class: "table-scroll" }, roundsTable(report)));
    } catch (failure) {
      if (!stopped) error.textContent = failure instanceof ApiError ? failure.message : "The casino cannot be reached; try again.";
    } finally {
      body.removeAttribute("aria-busy");
    }
  }

  replace(main, h("section", { class: "report-page", "aria-labelledby": "dealers-title" },
    h("h1", { id: "dealers-title" }, "Dealers and voids"),
    h("p", { class: "lead" }, "Which live tables each dealer deals, and how often each dealer's rounds end in a void. An electronic round is never voided once betting has closed: its seeds fix its cards, and it is played out."),
    h("section", { class: "panel", "aria-labelledby": "roster-title" },
      h("h2", { id: "roster-title" }, "Dealers' tables"),
      h("p", { class: "quiet" }, "A dealer enters cards, calls no more bets, voids and reads the shoe only at the tables ticked here. Each change goes into the audit trail."),
      rosterPanel(setMessage),
      message),
    h("h2", {}, "Voids by dealer"),
    h("form", { class: "inline-form period-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); load(); } },
      h("label", { for: "voids-from" }, "From"), from,
      h("label", { for: "voids-to" }, "To"), to,
      h("label", { for: "voids-min-rounds" }, "Compare from"), minRounds,
      h("small", { id: "voids-min-hint" }, "rounds dealt"),
      h("button", { type: "submit", class: "primary" }, "Show voids")),
    error,
    body));
  load();
  return () => {
    stopped = true;
  };
}
