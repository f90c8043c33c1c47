// The player's account: loss limits per day, week and month (and any raise still waiting
// its 24 hours), the reality check, time played and the net result today, and
// self-exclusion — all from GET /api/me/protections; the server enforces every one.
// A limit of 0.00 is asked about first: it stops all play, and lifting it waits a day.

import { get, post, put } from "../api.js";
import { openModal } from "../dialog.js";
import { dateTime, h, money, parseMoney, replace, signed } from "../dom.js";
import { failureText as failure } from "../failure.js";
import { t } from "../i18n.js";
import { signInPanel } from "../signins.js";

const PERIODS = ["day", "week", "month"];
const periodName = (id) => t(`account.period.${id}`);
const periodSpan = (id) => t(`account.period.${id}_span`);
/** "daily", "weekly", "monthly": the period as a limit's sentence names it. */
const periodWord = (id) => t(`account.period.${id}_word`);
const EXCLUSION_DAYS = [1, 7, 30, 90, 180, 365, 1825];
const REALITY_MINUTES = [5, 600];

/** A break's length in words: whole years as years ("1 year", "5 years"), else days. */
function breakLength(days) {
  return days % 365 === 0 ? t("account.years", { n: days / 365 }) : t("account.days", { n: days });
}

/** A length of time as the language writes it: "0 min", "12 min", "1 h 05 min". */
export function lasted(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  if (minutes < 60) return t("account.minutes", { n: minutes });
  return t("account.hours_minutes", { hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, "0") });
}

/** What a pending change will do, in words: "200.00 from 6 Apr 2026, 14:05". */
export function pendingText(pending) {
  if (!pending) return "";
  const at = dateTime(pending.effective_at);
  return pending.loss_limit_cents === null
    ? t("account.pending_none", { at })
    : t("account.pending", { amount: money(pending.loss_limit_cents), at });
}

export function mount(main) {
  let stopped = false;
  let state = null;
  const ui = {
    today: h("dl", { class: "facts today", "aria-busy": "true" }),
    limits: h("tbody", {}),
    limitMessage: h("p", { class: "form-message", id: "limit-message", role: "status" }),
    realityNow: h("p", { id: "reality-now" }),
    realityMessage: h("p", { class: "form-message", id: "reality-message", role: "status" }),
    exclusion: h("div", { class: "exclusion" }),
  };

  // --- the limit form ---------------------------------------------------------------

  const period = h("select", { id: "limit-period", name: "period" },
    PERIODS.map((id) => h("option", { value: id }, t("account.period_option", { name: periodName(id), span: periodSpan(id) }))));
  const amount = h("input", {
    id: "limit-amount", name: "amount", inputmode: "decimal", autocomplete: "off", placeholder: money(5000),
    "aria-describedby": "limit-hint limit-message",
  });
  const limitForm = h("form", { class: "stack-form", novalidate: true, onSubmit: (event) => {
    event.preventDefault();
    const cents = parseMoney(amount.value);
    if (cents === null) {
      say(ui.limitMessage, t("account.limit.enter", { example: money(5000) }), "fail");
      amount.focus();
      return;
    }
    setLimit(period.value, cents);
  } },
  h("div", { class: "field-row" },
    h("div", { class: "field" }, h("label", { for: "limit-period" }, t("account.limit.period")), period),
    h("div", { class: "field" }, h("label", { for: "limit-amount" }, t("account.limit.amount")), amount)),
  h("small", { id: "limit-hint" }, t("account.limit.hint")),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary" }, t("account.limit.save")),
    h("button", { type: "button", onClick: () => setLimit(period.value, null) }, t("account.limit.remove"))),
  ui.limitMessage);

  function setLimit(which, cents) {
    if (cents === 0) confirmZero(which);
    else saveLimit(which, cents, false);
  }

  /** A limit of 0.00 stops all play at once, and lifting it waits 24 hours: ask first. */
  function confirmZero(which) {
    const period = periodWord(which);
    const zero = money(0);
    const unchanged = () => say(ui.limitMessage, t("account.zero.unchanged", { period }), "done");
    const { close } = openModal({
      id: "zero-limit-confirm",
      className: "modal-warning",
      title: t("account.zero.title", { period, zero }),
      body: [
        h("p", {}, t("account.zero.stops", { zero })),
        h("p", { class: "strong" }, t("account.zero.waits")),
      ],
      actions: [
        h("button", { type: "button", class: "danger", onClick: () => {
          close();
          saveLimit(which, 0, true);
        } }, t("account.zero.yes", { zero })),
        h("button", { type: "button", onClick: () => {
          close();
          unchanged();
        } }, t("account.cancel")),
      ],
      onDismiss: unchanged,
    });
  }

  async function saveLimit(which, cents, confirm) {
    const before = state ? state.limits[which].loss_limit_cents : null;
    try {
      const body = { period: which, loss_limit_cents: cents };
      if (confirm) body.confirm = true;
      const answer = await put("/api/me/limits", body);
      await load();
      const [text, kind] = changeText(which, cents, before, answer);
      say(ui.limitMessage, text, kind);
      amount.value = "";
    } catch (error) {
      say(ui.limitMessage, failure(error), "fail");
    }
  }

  /** What a change of limit did, from the server's answer: what applies now, what later, and the waiting change it cancelled. */
  function changeText(which, cents, before, answer) {
    const period = periodWord(which);
    const now = state.limits[which];
    const inForce = answer.in_force_cents;
    const also = (text) => (answer.cancelled ? t("account.change.and_cancelled", { text, pending: pendingText(answer.cancelled) }) : text);
    if (now.pending && Math.abs(now.pending.effective_at - answer.effective_at) < 1) {
      const at = dateTime(answer.effective_at);
      const change = cents === null
        ? t("account.change.removing", { period, at })
        : t("account.change.raising", { period, amount: money(cents), at });
      const until = inForce === null ? t("account.change.until_none") : t("account.change.until", { period, amount: money(inForce) });
      return [also(t("account.change.waits", { change, until })), "wait"];
    }
    if (cents === null) return [also(t("account.change.none", { period })), "done"];
    if (cents === 0) return [also(t("account.change.zero", { period, zero: money(0) })), "done"];
    if (answer.cancelled || (before !== null && cents < before)) {
      return [also(t("account.change.lowered", { period, amount: money(cents) })), "done"];
    }
    return [t("account.change.set", { period, amount: money(cents) }), "done"];
  }

  // --- the reality check ------------------------------------------------------------

  const minutes = h("input", {
    id: "reality-minutes", name: "minutes", type: "number", min: REALITY_MINUTES[0], max: REALITY_MINUTES[1], step: 1,
    inputmode: "numeric", "aria-describedby": "reality-hint reality-message",
  });
  const realityForm = h("form", { class: "stack-form", novalidate: true, onSubmit: (event) => {
    event.preventDefault();
    const value = Number(minutes.value);
    if (!Number.isInteger(value) || value < REALITY_MINUTES[0] || value > REALITY_MINUTES[1]) {
      say(ui.realityMessage, t("account.reality.enter", { min: REALITY_MINUTES[0], max: REALITY_MINUTES[1] }), "fail");
      minutes.focus();
      return;
    }
    setReality(value);
  } },
  h("div", { class: "field" }, h("label", { for: "reality-minutes" }, t("account.reality.every_label")), minutes),
  h("small", { id: "reality-hint" }, t("account.reality.hint", { min: REALITY_MINUTES[0], max: REALITY_MINUTES[1] })),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary" }, t("account.reality.save")),
    h("button", { type: "button", onClick: () => setReality(null) }, t("account.reality.off_button"))),
  ui.realityMessage);

  async function setReality(value) {
    try {
      const answer = await put("/api/me/reality-check", { minutes: value });
      await load();
      say(ui.realityMessage, answer.minutes
        ? t("account.reality.saved", { n: answer.minutes })
        : t("account.reality.turned_off"), "done");
    } catch (error) {
      say(ui.realityMessage, failure(error), "fail");
    }
  }

  // --- self-exclusion ---------------------------------------------------------------

  function confirmExclusion(days) {
    const span = breakLength(days);
    const { close } = openModal({
      id: "exclusion-confirm",
      className: "modal-warning",
      title: t("account.exclusion.title", { span }),
      body: [
        h("p", {}, t("account.exclusion.effect", { span })),
        h("p", { class: "strong" }, t("account.exclusion.final")),
        h("p", { class: "quiet" }, t("account.exclusion.still")),
      ],
      actions: [
        h("button", { type: "button", class: "danger", onClick: async () => {
          close();
          try {
            await post("/api/me/self-exclusion", { days });
            await load();
          } catch (error) {
            replace(ui.exclusion, h("p", { class: "fail", role: "alert" }, failure(error)));
          }
        } }, t("account.exclusion.yes", { span })),
        h("button", { type: "button", onClick: () => close() }, t("account.cancel")),
      ],
    });
  }

  function drawExclusion() {
    const until = state.self_excluded_until;
    if (until) {
      const [before, after] = t("account.exclusion.until", { until: "\u0000" }).split("\u0000");
      replace(ui.exclusion,
        h("p", { class: "excluded", id: "excluded-until", "data-until": String(until) },
          before, h("strong", {}, dateTime(until)), after),
        h("p", { class: "quiet" }, t("account.exclusion.until_note")));
      return;
    }
    const days = h("select", { id: "exclusion-days", name: "days" },
      EXCLUSION_DAYS.map((n) => h("option", { value: String(n), selected: n === 30 }, breakLength(n))));
    replace(ui.exclusion,
      h("p", {}, t("account.exclusion.offer")),
      h("form", { class: "inline-form", onSubmit: (event) => {
        event.preventDefault();
        const chosen = EXCLUSION_DAYS.find((n) => String(n) === days.value);
        confirmExclusion(chosen);
      } },
      h("label", { for: "exclusion-days" }, t("account.exclusion.for_label")), days,
      h("button", { type: "submit", class: "danger" }, t("account.exclusion.button"))));
  }

  // --- drawing ----------------------------------------------------------------------

  function drawToday() {
    const s = state.session;
    ui.today.removeAttribute("aria-busy");
    replace(ui.today,
      h("div", {}, h("dt", {}, t("account.today.played")), h("dd", { id: "played-today", "data-seconds": String(state.time_played_today_seconds) }, lasted(state.time_played_today_seconds))),
      h("div", {}, h("dt", {}, t("account.today.net")), h("dd", { id: "net-today", "data-cents": String(state.net_today_cents), class: state.net_today_cents < 0 ? "down" : state.net_today_cents > 0 ? "up" : null }, signed(state.net_today_cents))),
      h("div", {}, h("dt", {}, t("account.today.now")), h("dd", { id: "session-now", "data-ends-at": s ? String(s.ends_at) : "" },
        s ? t("account.today.session", { played: lasted(s.minutes * 60), net: signed(s.net_cents) }) : t("account.today.no_session"))),
      h("div", {}, h("dt", {}, t("account.reality.title")), h("dd", {}, state.reality_check_minutes ? t("account.today.every", { n: state.reality_check_minutes }) : t("account.today.off"))));
  }

  function drawLimits() {
    replace(ui.limits, PERIODS.map((id) => {
      const row = state.limits[id];
      const limit = row.loss_limit_cents;
      return h("tr", { "data-period": id },
        h("th", { scope: "row" }, periodName(id), h("small", {}, periodSpan(id))),
        h("td", { class: "limit" }, limit === null ? t("account.limit.none") : money(limit)),
        h("td", { class: ["net", row.net_loss_cents > 0 ? "down" : row.net_loss_cents < 0 ? "up" : null] }, signed(-row.net_loss_cents)),
        h("td", { class: "room" }, row.room_cents === null ? "—" : money(row.room_cents)),
        h("td", { class: "pending", "data-effective-at": row.pending ? String(row.pending.effective_at) : "" }, row.pending ? pendingText(row.pending) : "—"));
    }));
  }

  function drawReality() {
    ui.realityNow.textContent = state.reality_check_minutes
      ? t("account.reality.now", { n: state.reality_check_minutes })
      : t("account.reality.now_off");
    if (state.reality_check_minutes && document.activeElement !== minutes) minutes.value = String(state.reality_check_minutes);
  }

  async function load() {
    const answer = await get("/api/me/protections");
    if (stopped) return;
    state = answer;
    drawToday();
    drawLimits();
    drawReality();
    drawExclusion();
  }

  replace(main, h("section", { class: "account-page", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, t("account.title")),
    h("p", { class: "lead" }, t("account.lead")),
    h("div", { class: "account-grid" },
      h("section", { class: "panel wide", "aria-labelledby": "today-title" },
        h("h2", { id: "today-title" }, t("account.today.title")),
        ui.today,
        h("p", { class: "quiet small" }, t("account.today.note"))),
      h("section", { class: "panel wide", "aria-labelledby": "limits-title" },
        h("h2", { id: "limits-title" }, t("account.limits.title")),
        h("p", { class: "quiet", id: "limits-note" }, t("account.limits.note")),
        h("div", { class: "table-scroll", tabindex: "0" },
          h("table", { class: "data-table limits-table", "aria-labelledby": "limits-title", "aria-describedby": "limits-note" },
            h("thead", {}, h("tr", {},
              h("th", { scope: "col" }, t("account.limit.period")), h("th", { scope: "col" }, t("account.limits.limit")), h("th", { scope: "col" }, t("account.limits.net")),
              h("th", { scope: "col" }, t("account.limits.room")), h("th", { scope: "col" }, t("account.limits.waiting")))),
            ui.limits)),
        limitForm),
      h("section", { class: "panel", "aria-labelledby": "reality-title" },
        h("h2", { id: "reality-title" }, t("account.reality.title")),
        ui.realityNow,
        realityForm),
      h("section", { class: "panel", "aria-labelledby": "exclusion-title" },
        h("h2", { id: "exclusion-title" }, t("account.exclusion.heading")),
        ui.exclusion),
      signInPanel())));

  load().catch((error) => {
    if (!stopped) replace(ui.today, h("p", { class: "fail" }, failure(error)));
  });
  return () => {
    stopped = true;
    document.getElementById("exclusion-confirm")?.remove();
    document.getElementById("zero-limit-confirm")?.remove();
  };
}

function say(node, text, kind) {
  node.textContent = text;
  node.dataset.kind = kind;
}
