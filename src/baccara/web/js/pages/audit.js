// The audit trail (admins): every admin and dealer action — who, in which role, what, to
// what, why and when (GET /api/admin/audit, newest first) — and a wallet adjustment
// with its reason (POST /api/admin/wallets/{username}/adjust), which lands in the trail.

import { ApiError, get, post } from "../api.js";
import { dateTime, h, money, parseMoney, replace, signed } from "../dom.js";
import { adminOnly } from "./report.js";
import { number } from "../words.js";

const PAGE = 100;

const ACTIONS = {
  "table-opened": "Table opened",
  "table-closed": "Table closed",
  "wallet-credited": "Wallet credited",
  "wallet-debited": "Wallet debited",
  "betting-closed": "Betting closed",
  "cards-entered": "Cards entered",
  "round-voided": "Round voided",
  "dealer-assigned": "Dealer's tables",
};

/** A count with thousands separators; an id or a nonce as it is. */
const counted = (key, value) => (typeof value === "number" && !/(^|_)(id|nonce|seat)$/.test(key) ? number(value) : value);

/** An action's particulars in words: amounts as money, cards as typed, the rest as key value. */
export function detailsText(details) {
  const parts = [];
  for (const [key, value] of Object.entries(details || {})) {
    if (value === null || value === undefined) continue;
    if (key === "amount_cents") parts.push(`amount ${signed(value)}`);
    else if (key === "balance_cents") parts.push(`balance after ${money(value)}`);
    else if (key === "limits" && Array.isArray(value)) parts.push(`limits ${money(value[0])} – ${money(value[1])}`);
    else if (key === "entries" && Array.isArray(value)) parts.push(value.join(" "));
    else if ((key === "tables" || key === "before") && Array.isArray(value)) {
      const tables = value.length ? value.map((t) => `table ${t}`).join(", ") : "none";
      parts.push(key === "before" ? `before: ${tables}` : `tables: ${tables}`);
    } else if (key === "stakes_cents") parts.push(`stakes ${money(value)}`);
    else if (key === "options" && typeof value === "object") {
      const options = Object.entries(value).map(([k, v]) => `${k}=${v}`).join(", ");
      if (options) parts.push(`options ${options}`);
    } else if (key.endsWith("_cents") && Number.isSafeInteger(value)) parts.push(`${key.slice(0, -6).replaceAll("_", " ")} ${money(value)}`);
    else parts.push(`${key.replaceAll("_", " ")} ${typeof value === "object" ? JSON.stringify(value) : counted(key, value)}`);
  }
  return parts.join(" · ");
}

function entryRow(entry) {
  return h("tr", { "data-id": entry.id, "data-action": entry.action },
    h("td", { class: "when", "data-label": "When" }, dateTime(entry.at)),
    h("td", { class: "actor", "data-label": "Who" }, entry.actor),
    h("td", { class: "role", "data-label": "Role" }, entry.role),
    h("td", { class: "action", "data-label": "Action" }, ACTIONS[entry.action] || entry.action),
    h("td", { class: "target", "data-label": "Target" }, entry.target),
    h("td", { class: "reason", "data-label": "Reason" }, entry.reason || "—"),
    h("td", { class: "details", "data-label": "Details" }, detailsText(entry.details)));
}

export function mount(main) {
  if (adminOnly(main)) return null;
  let stopped = false;
  let oldest = null;
  const rows = h("tbody", {});
  const more = h("button", { type: "button", hidden: true, onClick: () => load(false) }, "Show older entries");

  async function load(fresh) {
    try {
      const query = fresh || oldest === null ? `limit=${PAGE}` : `limit=${PAGE}&before=${oldest}`;
      const entries = await get(`/api/admin/audit?${query}`);
      if (stopped) return;
      if (fresh) rows.replaceChildren();
      if (fresh && !entries.length) replace(rows, h("tr", {}, h("td", { colspan: 7, class: "quiet" }, "Nothing yet: no admin or dealer has acted.")));
      rows.append(...entries.map(entryRow));
      if (entries.length) oldest = entries[entries.length - 1].id;
      more.hidden = entries.length < PAGE;
    } catch (error) {
      if (!stopped) replace(rows, h("tr", {}, h("td", { colspan: 7, class: "fail" }, error.message)));
    }
  }

  // --- a wallet adjustment ------------------------------------------------------------

  const username = h("input", { id: "adjust-user", name: "username", autocomplete: "off", spellcheck: "false", autocapitalize: "none", required: true });
  const amount = h("input", { id: "adjust-amount", name: "amount", inputmode: "decimal", autocomplete: "off", placeholder: "25.00", required: true, "aria-describedby": "adjust-amount-hint" });
  const reason = h("input", { id: "adjust-reason", name: "reason", autocomplete: "off", minlength: 3, maxlength: 500, required: true, "aria-describedby": "adjust-reason-hint" });
  const message = h("p", { class: "form-message", id: "adjust-message", role: "status" });
  const submit = h("button", { type: "submit", class: "primary" }, "Adjust wallet");

  async function adjust() {
    const cents = parseMoney(amount.value, { negative: true });
    const who = username.value.trim();
    const why = reason.value.trim();
    message.dataset.kind = "fail";
    if (!who) {
      message.textContent = "Whose wallet? Enter a username.";
      return;
    }
    if (cents === null || cents === 0) {
      message.textContent = "Enter an amount: 25.00 to credit, −25.00 to debit.";
      return;
    }
    if (why.length < 3) {
      message.textContent = "Give a reason (3 characters at least): it goes into the audit trail.";
      return;
    }
    submit.disabled = true;
    try {
      const answer = await post(`/api/admin/wallets/${encodeURIComponent(who)}/adjust`, { amount_cents: cents, reason: why });
      message.dataset.kind = "done";
      message.textContent = `${cents > 0 ? "Credited" : "Debited"} ${money(Math.abs(cents))} ${cents > 0 ? "to" : "from"} ${answer.username}: the balance is now ${money(answer.balance_cents)}.`;
      amount.value = "";
      reason.value = "";
      await load(true);
    } catch (error) {
      message.textContent = error instanceof ApiError ? error.message : "The casino cannot be reached; try again.";
    } finally {
      submit.disabled = false;
    }
  }

  replace(main, h("section", { class: "audit-page", "aria-labelledby": "audit-title" },
    h("h1", { id: "audit-title" }, "Audit trail and wallets"),
    h("p", { class: "lead" }, "Every admin and dealer action, newest first: tables opened and closed, wallets credited and debited, betting closed, cards entered, rounds voided. The trail is append-only: the database refuses to change or delete an entry."),
    h("section", { class: "panel", "aria-labelledby": "adjust-title" },
      h("h2", { id: "adjust-title" }, "Adjust a wallet"),
      h("form", { class: "adjust-form", novalidate: true, onSubmit: (event) => { event.preventDefault(); adjust(); } },
        h("div", { class: "field" }, h("label", { for: "adjust-user" }, "Username"), username),
        h("div", { class: "field" }, h("label", { for: "adjust-amount" }, "Amount"), amount,
          h("small", { id: "adjust-amount-hint" }, "25.00 credits, −25.00 debits.")),
        h("div", { class: "field" }, h("label", { for: "adjust-reason" }, "Reason"), reason,
          h("small", { id: "adjust-reason-hint" }, "Recorded in the audit trail with your name.")),
        h("div", { class: "submit" }, submit)),
      message),
    h("section", { "aria-labelledby": "trail-title" },
      h("h2", { id: "trail-title" }, "The trail"),
      h("div", { class: "table-scroll" },
        h("table", { class: "data-table audit-table", id: "audit-trail" },
          h("thead", {}, h("tr", {}, ["When", "Who", "Role", "Action", "Target", "Reason", "Details"].map((t) => h("th", { scope: "col" }, t)))),
          rows)),
      more)));
  load(true);
  return () => {
    stopped = true;
  };
}
