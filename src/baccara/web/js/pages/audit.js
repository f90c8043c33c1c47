// The audit trail (admins): every admin and dealer action — who, in which role, what, to
// what, why and when (GET /api/admin/audit, newest first) — and a wallet adjustment
// with its reason (POST /api/admin/wallets/{username}/adjust), which lands in the trail.

import { get, post } from "../api.js";
import { dateTime, h, money, parseMoney, replace, signed } from "../dom.js";
import { failureText } from "../failure.js";
import { has, t } from "../i18n.js";
import { gameName } from "../layouts.js";
import { adminOnly } from "./report.js";
import { number } from "../words.js";

const PAGE = 100;

/** A word of the trail by its id ("wallet-credited", "dealer"), or the id as it is. */
const word = (group, id) => (has(`admin.audit.${group}.${id}`) ? t(`admin.audit.${group}.${id}`) : String(id));

/** What an action was done to, in words: "user alice", "table 5", "round 12". */
function targetText(target) {
  const found = /^(user|table|round) (.+)$/.exec(target || "");
  return found ? t(`admin.audit.target.${found[1]}`, { id: found[2] }) : target;
}

/** A particular's value in words: a game by its name, a mode, a phase, yes or no. */
function valueText(key, value) {
  if (typeof value === "boolean") return t(value ? "admin.yes" : "admin.no");
  if (key === "game") return gameName(value);
  if (key === "mode" || key === "phase" || key === "new_role") return word(key, value);
  return typeof value === "object" ? JSON.stringify(value) : counted(key, value);
}

/** A count with thousands separators; an id or a nonce as it is. */
const counted = (key, value) => (typeof value === "number" && !/(^|_)(id|nonce|seat)$/.test(key) ? number(value) : value);

/** An action's particulars in words: amounts as money, cards as typed, the rest as key value. */
export function detailsText(details) {
  const parts = [];
  for (const [key, value] of Object.entries(details || {})) {
    if (value === null || value === undefined) continue;
    const named = (text) => t("admin.audit.detail", { key: has(`admin.audit.key.${key}`) ? t(`admin.audit.key.${key}`) : key.replace(/_cents$/, "").replaceAll("_", " "), value: text });
    if (key === "amount_cents") parts.push(named(signed(value)));
    else if (key === "limits" && Array.isArray(value)) parts.push(named(t("admin.audit.range", { min: money(value[0]), max: money(value[1]) })));
    else if (key === "entries" && Array.isArray(value)) parts.push(value.join(" "));
    else if ((key === "tables" || key === "before") && Array.isArray(value)) {
      const tables = value.length ? value.map((id) => t("admin.audit.target.table", { id })).join(t("admin.list_separator")) : t("admin.audit.no_table");
      parts.push(t(`admin.audit.${key}`, { tables }));
    } else if (key === "options" && typeof value === "object") {
      const options = Object.entries(value).map(([k, v]) => `${k}=${v}`).join(", ");
      if (options) parts.push(named(options));
    } else if (key.endsWith("_cents") && Number.isSafeInteger(value)) parts.push(named(money(value)));
    else parts.push(named(valueText(key, value)));
  }
  return parts.join(" · ");
}

function entryRow(entry) {
  return h("tr", { "data-id": entry.id, "data-action": entry.action },
    h("td", { class: "when", "data-label": column("when") }, dateTime(entry.at)),
    h("td", { class: "actor", "data-label": column("who") }, entry.actor),
    h("td", { class: "role", "data-label": column("role") }, word("new_role", entry.role)),
    h("td", { class: "action", "data-label": column("action") }, word("action", entry.action)),
    h("td", { class: "target", "data-label": column("target") }, targetText(entry.target)),
    h("td", { class: "reason", "data-label": column("reason") }, entry.reason || "—"),
    h("td", { class: "details", "data-label": column("details") }, detailsText(entry.details)));
}

const COLUMNS = ["when", "who", "role", "action", "target", "reason", "details"];

function column(id) {
  return t(`admin.audit.col.${id}`);
}

export function mount(main) {
  if (adminOnly(main)) return null;
  let stopped = false;
  let oldest = null;
  const rows = h("tbody", {});
  const more = h("button", { type: "button", hidden: true, onClick: () => load(false) }, t("admin.audit.older"));

  async function load(fresh) {
    try {
      const query = fresh || oldest === null ? `limit=${PAGE}` : `limit=${PAGE}&before=${oldest}`;
      const entries = await get(`/api/admin/audit?${query}`);
      if (stopped) return;
      if (fresh) rows.replaceChildren();
      if (fresh && !entries.length) replace(rows, h("tr", {}, h("td", { colspan: 7, class: "quiet" }, t("admin.audit.none"))));
      rows.append(...entries.map(entryRow));
      if (entries.length) oldest = entries[entries.length - 1].id;
      more.hidden = entries.length < PAGE;
    } catch (error) {
      if (!stopped) replace(rows, h("tr", {}, h("td", { colspan: 7, class: "fail" }, failureText(error))));
    }
  }

  // --- a wallet adjustment ------------------------------------------------------------

  const username = h("input", { id: "adjust-user", name: "username", autocomplete: "off", spellcheck: "false", autocapitalize: "none", required: true });
  const amount = h("input", { id: "adjust-amount", name: "amount", inputmode: "decimal", autocomplete: "off", placeholder: money(2500), required: true, "aria-describedby": "adjust-amount-hint" });
  const reason = h("input", { id: "adjust-reason", name: "reason", autocomplete: "off", minlength: 3, maxlength: 500, required: true, "aria-describedby": "adjust-reason-hint" });
  const message = h("p", { class: "form-message", id: "adjust-message", role: "status" });
  const submit = h("button", { type: "submit", class: "primary" }, t("admin.audit.adjust"));

  async function adjust() {
    const cents = parseMoney(amount.value, { negative: true });
    const who = username.value.trim();
    const why = reason.value.trim();
    message.dataset.kind = "fail";
    if (!who) {
      message.textContent = t("admin.audit.whose");
      return;
    }
    if (cents === null || cents === 0) {
      message.textContent = t("admin.audit.amount_needed", { credit: money(2500), debit: money(-2500) });
      return;
    }
    if (why.length < 3) {
      message.textContent = t("admin.audit.reason_needed", { n: 3 });
      return;
    }
    submit.disabled = true;
    try {
      const answer = await post(`/api/admin/wallets/${encodeURIComponent(who)}/adjust`, { amount_cents: cents, reason: why });
      message.dataset.kind = "done";
      message.textContent = t(cents > 0 ? "admin.audit.credited" : "admin.audit.debited", { amount: money(Math.abs(cents)), user: answer.username, balance: money(answer.balance_cents) });
      amount.value = "";
      reason.value = "";
      await load(true);
    } catch (error) {
      message.textContent = failureText(error);
    } finally {
      submit.disabled = false;
    }
  }

  replace(main, h("section", { class: "audit-page", "aria-labelledby": "audit-title" },
    h("h1", { id: "audit-title" }, t("admin.audit.title")),
    h("p", { class: "lead" }, t("admin.audit.lead")),
    h("section", { class: "panel", "aria-labelledby": "adjust-title" },
      h("h2", { id: "adjust-title" }, t("admin.audit.adjust_title")),
      h("form", { class: "adjust-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); adjust(); } },
        h("div", { class: "field" }, h("label", { for: "adjust-user" }, t("admin.audit.username")), username),
        h("div", { class: "field" }, h("label", { for: "adjust-amount" }, t("admin.audit.amount")), amount,
          h("small", { id: "adjust-amount-hint" }, t("admin.audit.amount_hint", { credit: money(2500), debit: money(-2500) }))),
        h("div", { class: "field" }, h("label", { for: "adjust-reason" }, t("admin.audit.col.reason")), reason,
          h("small", { id: "adjust-reason-hint" }, t("admin.audit.reason_hint"))),
        h("div", { class: "submit" }, submit)),
      message),
    h("section", { "aria-labelledby": "trail-title" },
      h("h2", { id: "trail-title" }, t("admin.audit.trail")),
      h("div", { class: "table-scroll", tabindex: "0" },
        h("table", { class: "data-table audit-table", id: "audit-trail" },
          h("thead", {}, h("tr", {}, COLUMNS.map((id) => h("th", { scope: "col" }, column(id))))),
          rows)),
      more)));
  load(true);
  return () => {
    stopped = true;
  };
}
